// The account's password and second factor (/dashboard/data/account/...): change the password;
// the second factor's state and the recovery codes left, start (the key, its otpauth URI and that
// URI's QR Code) and confirm the TOTP enrolment (which issues recovery codes), new recovery codes
// in place of the old ones, and turn TOTP off. Changing the password, new codes and turning off
// ask for the password again, under the sign-in's throttle (requireCurrentPassword). And, for
// anyone holding one, completing an owner's reset of a password with its one-time code.
#include <openssl/crypto.h>

#include <stdexcept>

#include "accounts/base32.h"
#include "accounts/password_policy.h"
#include "accounts/password_reset_codes.h"
#include "accounts/recovery_codes.h"
#include "accounts/totp.h"
#include "auth/unix_clock.h"
#include "common/error_codes.h"
#include "common/json_escape.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"
#include "server/symbols/symbol_svg.h"

namespace codepayload::server::dashboard {

namespace {

constexpr std::string_view kTotpIssuer = "Code-Payload Service";
// The QR Code's name for a screen reader: the URI it holds carries the secret.
constexpr std::string_view kTotpQrCodeLabel = "QR Code of the key, for your authenticator app";

// {"symbology","label","svg"}: the QR Code of the otpauth URI. An otpauth URI
// is a few hundred bytes at most (an email is at most 254), far below what a
// QR Code holds, so a refusal is zint's fault, not the account's.
std::string otpauthQrCodeJson(std::string_view uri) {
  std::string fault;
  const std::optional<symbols::Symbol> symbol = symbols::drawQrCodeLabelled(uri, std::string(kTotpQrCodeLabel), fault);
  if (!symbol) throw std::logic_error("zint did not draw an otpauth URI's QR Code: " + fault);
  std::string out = "{";
  stringMember(out, "symbology", symbols::symbologyName(symbol->symbology));
  stringMember(out, "label", symbol->label);
  stringMember(out, "svg", symbol->svg);
  out.push_back('}');
  return out;
}

// New recovery codes in place of the account's: stored as digests, shown once
// as {"recoveryCodes":[...]}.
void sendNewRecoveryCodes(Call& call) {
  const accounts::RecoveryCodes codes = accounts::newRecoveryCodes();
  call.accounts.accounts().replaceRecoveryCodes(call.who->id, codes.digests, call.audit());
  std::string out = "{\"recoveryCodes\":[";
  for (std::size_t i = 0; i < codes.codes.size(); ++i) {
    if (i > 0) out.push_back(',');
    common::appendJsonString(out, codes.codes[i]);
  }
  out += "]}";
  sendJson(call, 200, out);
}

// The body's new password ("newPassword", typed again as "confirmPassword") when the policy
// allows it; the caller cleanses it. Checked before the current password or a reset code is
// looked at, so that a refusal of the new one costs no attempt.
std::string acceptedNewPassword(const Call& call) {
  std::string password = stringField(call, "newPassword");
  std::string confirmation;
  try {
    confirmation = stringField(call, "confirmPassword");
  } catch (...) {
    OPENSSL_cleanse(password.data(), password.size());
    throw;
  }
  const bool same = password.size() == confirmation.size() &&
                    CRYPTO_memcmp(password.data(), confirmation.data(), password.size()) == 0;
  OPENSSL_cleanse(confirmation.data(), confirmation.size());
  std::optional<accounts::PasswordProblem> problem = accounts::passwordProblem(password);
  if (problem || !same) OPENSSL_cleanse(password.data(), password.size());
  if (problem) throw invalid("newPassword", "The new password is not allowed: " + problem->message + ".");
  if (!same) throw invalid("confirmPassword", "The two new passwords differ; type the same password in both fields.");
  return password;
}

// The hash of an accepted new password, which is cleansed.
std::string hashOf(Call& call, std::string& password) {
  const std::string hash = call.accounts.passwords().hash(password);
  OPENSSL_cleanse(password.data(), password.size());
  return hash;
}

Refusal resetCodeRefusal(std::string message) {
  return invalid("code", std::move(message) + " Ask an owner of your organization for a new reset link.");
}

}  // namespace

void changePassword(Call& call) {
  std::string password = acceptedNewPassword(call);
  try {
    requireCurrentPassword(call, "account.change-password");
  } catch (...) {
    OPENSSL_cleanse(password.data(), password.size());
    throw;
  }
  const std::string hash = hashOf(call, password);
  call.accounts.accounts().changePassword(call.who->id, hash, accounts::sessionIdDigest(call.sessionId), call.audit());
  sendNoContent(call);
}

void completePasswordReset(Call& call) {
  const std::optional<std::string> digest = accounts::resetCodeDigest(stringField(call, "code"));
  // The code is looked up before any Argon2 runs: without a valid code, this
  // endpoint, open to anyone, costs no more than a lookup.
  const std::optional<accounts::PasswordReset> reset =
      digest ? call.accounts.accounts().findPasswordReset(*digest) : std::nullopt;
  // A refusal of a known code is recorded in its user's organization, where the owner who made
  // the link sees it. An unknown code names no one and is not recorded: this endpoint has no
  // throttle (a code cannot be guessed), so recording each would let anyone fill the log.
  const auto refused = [&](std::string_view detail) {
    auditRefusal(call, "account.complete-reset", reset->userId, detail, reset->organizationId);
  };
  const std::string notValid = "This reset link is not valid: it was used already, or a newer one replaced it.";
  if (!reset) throw resetCodeRefusal(notValid);
  if (reset->expiresAt <= auth::systemUnixSeconds()) {
    refused("expired code");
    throw resetCodeRefusal("This reset link has expired.");
  }
  std::string password = acceptedNewPassword(call);
  const std::string hash = hashOf(call, password);
  // False when another request used the code meanwhile (or it expired since the lookup).
  if (!call.accounts.accounts().completePasswordReset(*digest, hash, call.audit())) {
    refused("unknown or used code");
    throw resetCodeRefusal(notValid);
  }
  sendNoContent(call);
}

void totpState(Call& call) {
  std::string out = "{";
  boolMember(out, "enabled", call.who->totpEnabled);
  member(out, "recoveryCodesLeft");
  out += std::to_string(call.who->totpEnabled ? call.accounts.accounts().recoveryCodesLeft(call.who->id) : 0);
  out.push_back('}');
  sendJson(call, 200, out);
}

void startTotp(Call& call) {
  if (call.who->totpEnabled) {
    throw Refusal{409, error_code::kConflict, std::nullopt, "TOTP is already on for your account; turn it off first."};
  }
  std::string secret = accounts::newTotpSecret();
  std::string out = "{";
  stringMember(out, "secret", accounts::encodeBase32(secret));
  const std::string uri = accounts::otpauthUri(kTotpIssuer, call.who->email, secret);
  stringMember(out, "otpauthUri", uri);
  member(out, "qrCode");
  out += otpauthQrCodeJson(uri);
  out.push_back('}');
  call.accounts.keepPendingTotp(accounts::sessionIdDigest(call.sessionId), std::move(secret));
  sendJson(call, 200, out);
}

void confirmTotp(Call& call) {
  const std::string code = stringField(call, "code");
  const std::string digest = accounts::sessionIdDigest(call.sessionId);
  std::optional<std::string> secret = call.accounts.pendingTotp(digest);
  if (!secret) throw Refusal{409, error_code::kConflict, std::nullopt, "Start the TOTP enrolment first."};
  const std::optional<std::int64_t> step = accounts::acceptTotp(*secret, code, auth::systemUnixSeconds(), std::nullopt);
  if (!step) {
    OPENSSL_cleanse(secret->data(), secret->size());
    throw invalid("code", "This code is not the one your app shows now; check the device's clock and try again.");
  }
  // The confirming code's step becomes the last one used: sign-in refuses that code.
  call.accounts.accounts().enableTotp(call.who->id, *secret, *step, call.audit());
  OPENSSL_cleanse(secret->data(), secret->size());
  call.accounts.forgetPendingTotp(digest);
  sendNewRecoveryCodes(call);
}

void replaceRecoveryCodes(Call& call) {
  if (!call.who->totpEnabled) {
    throw Refusal{409, error_code::kConflict, std::nullopt,
                  "TOTP is off for your account; recovery codes come with it."};
  }
  requireCurrentPassword(call, "account.recovery-codes");
  sendNewRecoveryCodes(call);
}

void disableTotp(Call& call) {
  requireCurrentPassword(call, "account.totp-disable");
  if (call.who->user && call.accounts.accounts().requiresTotp(call.organizationId())) {
    auditRefusal(call, "account.totp-disable", call.who->id, "the organization requires TOTP");
    throw Refusal{409, error_code::kConflict, std::nullopt,
                  "Your organization requires TOTP; it cannot be turned off."};
  }
  call.accounts.accounts().disableTotp(call.who->id, call.audit());
  sendNoContent(call);
}

}  // namespace codepayload::server::dashboard
