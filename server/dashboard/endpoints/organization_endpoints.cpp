// A user's organization and its users (/dashboard/data/organization...): the organization,
// adding and removing users (an email with an account elsewhere in the installation becomes a
// user placeholder, not a refusal that would tell the owner so), resetting a user's password (a
// one-time code the user completes), and whether the organization requires TOTP (only an owner
// who has it may require it).
#include <openssl/crypto.h>

#include "accounts/email_address.h"
#include "accounts/password_policy.h"
#include "accounts/password_reset_codes.h"
#include "auth/unix_clock.h"
#include "common/error_codes.h"
#include "common/utc_time.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

std::string userJson(const accounts::UserRecord& user) {
  std::string out = "{";
  stringMember(out, "id", user.id);
  stringMember(out, "email", user.email);
  stringMember(out, "role", accounts::roleName(user.role));
  boolMember(out, "totpEnabled", user.totpEnabled);
  stringMember(out, "createdAt", common::utcSecondsText(user.createdAt));
  out.push_back('}');
  return out;
}

// Throws the refusal an AccountError means, recording it as refused.
[[noreturn]] void refuseAccountChange(Call& call, std::string_view action, std::string_view target,
                                      const accounts::AccountError& error, std::string_view field,
                                      std::string_view organizationId = {}) {
  auditRefusal(call, action, target, error.what(), organizationId);
  switch (error.kind()) {
    case accounts::AccountError::Kind::EmailTaken:
      throw Refusal{409, error_code::kConflict, std::string(field), error.what()};
    case accounts::AccountError::Kind::InvalidValue:
      throw Refusal{409, error_code::kConflict, std::nullopt, error.what()};
    case accounts::AccountError::Kind::UnknownAccount:
    case accounts::AccountError::Kind::UnknownOrganization: throw notFound(error.what());
    case accounts::AccountError::Kind::Storage: break;
  }
  throw error;
}

// The user (or user placeholder) of the path's id, of the caller's organization and not the
// caller: an owner's change of another user. Refusing oneself is recorded as `action` refused.
accounts::UserRecord anotherUser(Call& call, std::string_view action, std::string_view selfDetail,
                                 std::string selfRefusal) {
  std::optional<accounts::UserRecord> user = call.accounts.accounts().findListedUser(call.segments.at(2));
  if (!user || user->organizationId != call.organizationId())
    throw notFound("Your organization has no user with this id.");
  if (user->id == call.who->id) {
    auditRefusal(call, action, user->id, selfDetail);
    throw Refusal{409, error_code::kConflict, std::nullopt, std::move(selfRefusal)};
  }
  return std::move(*user);
}

}  // namespace

void organization(Call& call, int status) {
  const auth::Organization organization = currentOrganization(call);
  std::string out = userOrganizationJson(call, organization);
  out.pop_back();
  member(out, "users");
  out.push_back('[');
  bool first = true;
  for (const accounts::UserRecord& user : call.accounts.accounts().listUsers(organization.id)) {
    if (!first) out.push_back(',');
    first = false;
    out += userJson(user);
  }
  out += "]}";
  sendJson(call, status, out);
}

void addUser(Call& call, std::string_view organizationId, Role role, Disclosure disclosure) {
  const std::string email = stringField(call, "email");
  std::string password = stringField(call, "password");
  // Recorded as refused, as codepayload-admin's `user create` records every refusal.
  const auto refuse = [&](std::string_view field, const std::string& why) {
    auditRefusal(call, "user.create", "", why, organizationId);
    return invalid(field, why);
  };
  if (const std::optional<std::string> problem = accounts::emailProblem(email)) throw refuse("email", *problem);
  if (const std::optional<accounts::PasswordProblem> problem = accounts::passwordProblem(password)) {
    OPENSSL_cleanse(password.data(), password.size());
    throw refuse("password", problem->message);
  }
  const std::string hash = call.accounts.passwords().hash(password);
  OPENSSL_cleanse(password.data(), password.size());
  try {
    accounts::AccountStore& store = call.accounts.accounts();
    const accounts::UserRecord user =
        disclosure == Disclosure::EmailTaken
            ? store.createUser(organizationId, email, role, hash, call.audit())
            : store.createUserWithoutDisclosure(organizationId, email, role, hash, call.audit());
    sendJson(call, 201, userJson(user));
  } catch (const accounts::AccountError& error) {
    refuseAccountChange(call, "user.create", "", error, "email", organizationId);
  }
}

void createUser(Call& call) {
  const std::optional<Role> role = accounts::parseRole(stringField(call, "role"));
  if (!role) throw invalid("role", "The role must be owner, developer or viewer.");
  addUser(call, call.organizationId(), *role, Disclosure::Placeholder);
}

void deleteUser(Call& call) {
  const accounts::UserRecord user = anotherUser(call, "user.delete", "a user cannot remove themselves",
                                                "You cannot remove yourself; ask another owner.");
  try {
    call.accounts.accounts().deleteUser(user.id, call.audit());
  } catch (const accounts::AccountError& error) {
    refuseAccountChange(call, "user.delete", user.id, error, "");
  }
  sendNoContent(call);
}

void resetUserPassword(Call& call) {
  const accounts::UserRecord user = anotherUser(call, "user.reset-password", "a user cannot reset their own password",
                                                "You cannot reset your own password; change it on your Account page.");
  const accounts::ResetCode code = accounts::newResetCode();
  const std::int64_t expiresAt = auth::systemUnixSeconds() + accounts::kResetCodeSeconds;
  try {
    call.accounts.accounts().startPasswordReset(user.id, code.digest, expiresAt, call.audit());
  } catch (const accounts::AccountError& error) {
    refuseAccountChange(call, "user.reset-password", user.id, error, "");
  }
  std::string out = "{";
  stringMember(out, "resetCode", code.code);
  stringMember(out, "expiresAt", common::utcSecondsText(expiresAt));
  out.push_back('}');
  sendJson(call, 200, out);
}

void requireTotp(Call& call) {
  const bool required = boolField(call, "required");
  // The rule holds for the owner too (D-D24): without TOTP they would be shut
  // out of the organization's pages by their own change.
  if (required && !call.who->totpEnabled) {
    auditRefusal(call, "org.require-totp", call.organizationId(), "the owner has no TOTP");
    throw Refusal{409, error_code::kConflict, std::nullopt,
                  "Turn on TOTP for your own account first (on the Account page); requiring it without it would "
                  "lock you out of the organization's pages."};
  }
  call.accounts.accounts().setRequireTotp(call.organizationId(), required, call.audit());
  organization(call);
}

}  // namespace codepayload::server::dashboard
