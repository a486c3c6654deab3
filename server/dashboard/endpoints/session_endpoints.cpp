// Signing in and out, and the session's own description (/dashboard/data/sign-in, sign-out,
// sign-out-everywhere, session).
#include <openssl/crypto.h>

#include <array>
#include <span>
#include <stdexcept>

#include "auth/unix_clock.h"
#include "common/error_codes.h"
#include "server/dashboard/dashboard_security.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

void signIn(Call& call) {
  const std::string email = stringField(call, "email");
  std::string password = stringField(call, "password");
  std::string code = stringField(call, "code", false);
  std::array<std::string_view, 8> cookies{};
  const std::size_t count = call.exchange.fieldValues("Cookie", cookies);
  const std::string_view previous = sessionIdFromCookies(std::span(cookies.data(), count));
  const accounts::SignInResult result = call.accounts.signIn().signIn(
      accounts::SignInAttempt{email, password, code, call.exchange.clientHost(), previous});
  OPENSSL_cleanse(password.data(), password.size());
  OPENSSL_cleanse(code.data(), code.size());

  // The record names the account when there is one, never the text typed (a
  // password typed into the email field must not reach the log). Of the
  // throttled attempts only the first of each lock or delay is recorded: the
  // others run no check, and recording each would let anyone fill the log.
  const bool recorded = result.outcome != accounts::SignInResult::Outcome::Throttled || result.firstRefusal;
  const std::optional<Principal> who =
      result.principalId.empty() ? std::nullopt : principalOf(call.accounts, result.principalId);
  accounts::AuditRecord record;
  record.at = auth::systemUnixSeconds();
  record.actor = who ? who->email : "anonymous";
  record.action = "account.sign-in";
  record.target = who ? who->id : "";
  record.organizationId = who && who->user ? who->user->organizationId : "";
  record.address = call.exchange.clientHost();
  record.result = result.outcome == accounts::SignInResult::Outcome::SignedIn ? accounts::AuditResult::Success
                                                                              : accounts::AuditResult::Refused;
  switch (result.outcome) {
    case accounts::SignInResult::Outcome::SignedIn:
      record.detail = result.usedRecoveryCode ? "recovery code used" : "";
      break;
    case accounts::SignInResult::Outcome::Refused:
      record.detail = who ? "wrong password or code" : "unknown email";
      break;
    case accounts::SignInResult::Outcome::SecondFactorNeeded: record.detail = "second factor asked"; break;
    case accounts::SignInResult::Outcome::Throttled: record.detail = "throttled"; break;
  }
  if (recorded) call.accounts.accounts().appendAudit(record);

  switch (result.outcome) {
    case accounts::SignInResult::Outcome::SignedIn: {
      if (!who) throw std::logic_error("signed in to an account that cannot be read");
      call.exchange.addHeader("Set-Cookie", sessionCookie(result.session->id));
      std::string out = "{";
      stringMember(out, "home", homeOf(*who));
      out.push_back('}');
      sendJson(call, 200, out);
      return;
    }
    case accounts::SignInResult::Outcome::Refused:
      throw Refusal{401, error_code::kSignInRefused, std::nullopt,
                    "The email, password or authentication code is not right."};
    case accounts::SignInResult::Outcome::SecondFactorNeeded:
      throw Refusal{401, error_code::kSecondFactorNeeded, std::nullopt,
                    "Enter the authentication code from your app, or one of your recovery codes."};
    case accounts::SignInResult::Outcome::Throttled:
      call.exchange.addHeader("Retry-After", std::to_string(result.retryAfterSeconds));
      throw Refusal{429, error_code::kTooManyAttempts, std::nullopt,
                    "Too many failed sign-ins; try again in " + std::to_string(result.retryAfterSeconds) + " seconds."};
  }
}

void signOut(Call& call) {
  call.accounts.sessions().end(call.sessionId);
  call.accounts.forgetPendingTotp(accounts::sessionIdDigest(call.sessionId));
  call.exchange.addHeader("Set-Cookie", expiredSessionCookie());
  sendNoContent(call);
}

void signOutEverywhere(Call& call) {
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
