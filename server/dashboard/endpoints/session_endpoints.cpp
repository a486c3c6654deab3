// Signing in and out, and the session's own description (/dashboard/data/sign-in, sign-out,
// sign-out-everywhere, session).
#include <openssl/crypto.h>

#include <array>
#include <span>
#include <stdexcept>

#include "auth/unix_clock.h"
#include "common/error_codes.h"
#include "common/markup_text.h"
#include "server/dashboard/dashboard_files.h"
#include "server/dashboard/dashboard_security.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

// One sign-in attempt, recorded in the audit log; `password` and `code` are
// cleansed.
struct SignInAttempted {
  accounts::SignInResult result;
  std::optional<Principal> who;
};

SignInAttempted attemptSignIn(Call& call, const std::string& email, std::string& password, std::string& code) {
  std::array<std::string_view, 8> cookies{};
  const std::size_t count = call.exchange.fieldValues("Cookie", cookies);
  const std::string_view previous = sessionIdFromCookies(std::span(cookies.data(), count));
  accounts::SignInResult result = call.accounts.signIn().signIn(
      accounts::SignInAttempt{email, password, code, call.exchange.clientHost(), previous});
  OPENSSL_cleanse(password.data(), password.size());
  OPENSSL_cleanse(code.data(), code.size());

  // The record names the account when there is one, never the text typed (a
  // password typed into the email field must not reach the log). Of the
  // throttled attempts only the first of each lock or delay is recorded: the
  // others run no check, and recording each would let anyone fill the log.
  const bool recorded = result.outcome != accounts::SignInResult::Outcome::Throttled || result.firstRefusal;
  std::optional<Principal> who =
      result.principalId.empty() ? std::nullopt : principalOf(call.accounts, result.principalId);
  accounts::AuditRecord record;
  record.at = auth::systemUnixSeconds();
  record.actor = who ? who->email : "anonymous";
  record.action = "account.sign-in";
  record.target = who ? who->id : "";
  record.organizationId = who && who->user ? who->user->organizationId : "";
  record.address = call.exchange.clientHost();
  // The password accepted and the second factor asked is a step that went
  // right, not a refusal; the audit_log's results are fixed by its schema, so
  // the detail tells this step from a completed sign-in.
  const bool stepSucceeded = result.outcome == accounts::SignInResult::Outcome::SignedIn ||
                             result.outcome == accounts::SignInResult::Outcome::SecondFactorNeeded;
  record.result = stepSucceeded ? accounts::AuditResult::Success : accounts::AuditResult::Refused;
  switch (result.outcome) {
    case accounts::SignInResult::Outcome::SignedIn:
      record.detail = result.usedRecoveryCode ? "recovery code used" : "";
      break;
    case accounts::SignInResult::Outcome::Refused:
      record.detail = who ? "wrong password or code" : "unknown email";
      break;
    case accounts::SignInResult::Outcome::SecondFactorNeeded: record.detail = "password accepted, code asked"; break;
    case accounts::SignInResult::Outcome::Throttled: record.detail = "throttled"; break;
    case accounts::SignInResult::Outcome::PasswordResetPending: record.detail = "password reset pending"; break;
  }
  if (recorded) call.accounts.accounts().appendAudit(record);
  if (result.outcome == accounts::SignInResult::Outcome::SignedIn) {
    if (!who) throw std::logic_error("signed in to an account that cannot be read");
    call.exchange.addHeader("Set-Cookie", sessionCookie(result.session->id));
  }
  return SignInAttempted{std::move(result), std::move(who)};
}

// Why an attempt that did not sign in was refused (Retry-After set when
// throttled).
Refusal refusalOf(Call& call, const accounts::SignInResult& result) {
  switch (result.outcome) {
    case accounts::SignInResult::Outcome::SecondFactorNeeded:
      return Refusal{401, error_code::kSecondFactorNeeded, std::nullopt,
                     "Enter the authentication code from your app, or one of your recovery codes."};
    case accounts::SignInResult::Outcome::Throttled:
      call.exchange.addHeader("Retry-After", std::to_string(result.retryAfterSeconds));
      return Refusal{429, error_code::kTooManyAttempts, std::nullopt,
                     "Too many failed sign-ins; try again in " + std::to_string(result.retryAfterSeconds) +
                         " seconds."};
    case accounts::SignInResult::Outcome::PasswordResetPending:
      return Refusal{401, error_code::kSignInRefused, std::nullopt,
                     "An owner of your organization reset your password, so it no longer signs in: open the reset "
                     "link they gave you and choose a new password."};
    case accounts::SignInResult::Outcome::Refused:
    case accounts::SignInResult::Outcome::SignedIn: break;
  }
  return Refusal{401, error_code::kSignInRefused, std::nullopt,
                 "The email, password or authentication code is not right."};
}

// Replaces the one `marker` of the sign-in page; a page that lost it is a
// build that does not match this code.
void replaceMarker(std::string& page, std::string_view marker, std::string_view replacement) {
  const std::size_t at = page.find(marker);
  if (at == std::string::npos) {
    throw std::logic_error("sign-in.html lacks \"" + std::string(marker) + "\"");
  }
  page.replace(at, marker.size(), replacement);
}

// The sign-in page again, for a browser without JavaScript, as sign-in.js
// shows it: a refusal in GOV.UK's error summary (and "Error: " before the
// title), the question for the second factor as a plain message; the email
// typed kept, and the code's field shown when asked for.
std::string signInPage(const Refusal& refusal, std::string_view email, bool askCode) {
  const std::optional<DashboardFile> file = findDashboardFile("sign-in.html");
  if (!file) throw std::logic_error("sign-in.html is not part of this build");
  std::string page(file->bytes);
  const bool question = refusal.code == error_code::kSecondFactorNeeded;
  std::string alert = R"(<div id="page-alert" class="alert" role="alert" tabindex="-1")";
  alert += question ? "><p>" : " autofocus><h2>There is a problem</h2><ul><li>";
  common::appendMarkupText(alert, refusal.message);
  alert += question ? "</p></div>" : "</li></ul></div>";
  replaceMarker(page, R"(<div id="page-alert" class="alert" role="alert" hidden></div>)", alert);
  if (!question) replaceMarker(page, "<title>", "<title>Error: ");
  std::string emailInput = R"(<input id="email" name="email" type="email" value=")";
  common::appendMarkupText(emailInput, email);
  emailInput += '"';
  replaceMarker(page, R"(<input id="email" name="email" type="email")", emailInput);
  if (askCode) {
    replaceMarker(page, R"(<p id="code-field" hidden>)", R"(<p id="code-field">)");
    replaceMarker(page, R"(<input id="code" name="code")", R"(<input id="code" name="code" required autofocus)");
  }
  return page;
}

// Signing out is recorded as signing in is: who, from where.
void recordSignOut(Call& call, std::string_view detail) {
  accounts::AuditRecord record;
  record.at = auth::systemUnixSeconds();
  record.actor = call.who->email;
  record.action = "account.sign-out";
  record.target = call.who->id;
  record.organizationId = call.who->user ? call.who->user->organizationId : "";
  record.address = call.exchange.clientHost();
  record.result = accounts::AuditResult::Success;
  record.detail = std::string(detail);
  call.accounts.accounts().appendAudit(record);
}

}  // namespace

void signIn(Call& call) {
  const std::string email = stringField(call, "email");
  std::string password = stringField(call, "password");
  std::string code = stringField(call, "code", false);
  const SignInAttempted attempted = attemptSignIn(call, email, password, code);
  if (attempted.result.outcome != accounts::SignInResult::Outcome::SignedIn) {
    throw refusalOf(call, attempted.result);
  }
  std::string out = "{";
  stringMember(out, "home", homeOf(*attempted.who));
  out.push_back('}');
  sendJson(call, 200, out);
}

void signInWithForm(Call& call, std::string_view body) {
  std::vector<auth::FormField> fields;
  if (auth::parseForm(body, 8, fields) != auth::FormError::None) {
    throw Refusal{400, error_code::kBadRequest, std::nullopt, "The form's body is malformed."};
  }
  std::string email;
  std::string password;
  std::string code;
  for (auth::FormField& field : fields) {
    if (field.name == "email") email = field.value;
    if (field.name == "password") password = field.value;
    if (field.name == "code") code = field.value;
    OPENSSL_cleanse(field.value.data(), field.value.size());
  }
  const bool codeGiven = !code.empty();
  const SignInAttempted attempted = attemptSignIn(call, email, password, code);
  if (attempted.result.outcome == accounts::SignInResult::Outcome::SignedIn) {
    sendSeeOther(call, homeOf(*attempted.who));
    return;
  }
  // The page again, as a form re-shown with its error is: 200, or 429 with
  // Retry-After when throttled.
  const Refusal refusal = refusalOf(call, attempted.result);
  const bool askCode = codeGiven || attempted.result.outcome == accounts::SignInResult::Outcome::SecondFactorNeeded;
  sendBody(call.exchange, refusal.status == 429 ? 429 : 200, "text/html; charset=utf-8",
           signInPage(refusal, email, askCode), call.trace);
}

void signOut(Call& call) {
  recordSignOut(call, "");
  call.accounts.sessions().end(call.sessionId);
  call.accounts.forgetPendingTotp(accounts::sessionIdDigest(call.sessionId));
  call.exchange.addHeader("Set-Cookie", expiredSessionCookie());
  sendNoContent(call);
}

void signOutEverywhere(Call& call) {
  recordSignOut(call, "every session");
  call.accounts.sessions().endAllOf(call.who->id);
  call.accounts.forgetPendingTotp(accounts::sessionIdDigest(call.sessionId));
  call.exchange.addHeader("Set-Cookie", expiredSessionCookie());
  sendNoContent(call);
}

void session(Call& call) {
  const Principal& who = *call.who;
  std::string out = "{";
  stringMember(out, "kind", who.isOperator ? "operator" : "user");
  stringMember(out, "id", who.id);
  stringMember(out, "email", who.email);
  if (who.user) stringMember(out, "role", accounts::roleName(who.user->role));
  boolMember(out, "totpEnabled", who.totpEnabled);
  stringMember(out, "csrfToken", call.session->csrfToken);
  if (who.user) {
    member(out, "organization");
    out += userOrganizationJson(call, currentOrganization(call));
  }
  out.push_back('}');
  sendJson(call, 200, out);
}

}  // namespace codepayload::server::dashboard
