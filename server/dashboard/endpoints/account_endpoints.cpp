// The account's second factor (/dashboard/data/account/totp/...): start and confirm the TOTP
// enrolment (which issues recovery codes), and turn TOTP off (with the password, under the
// sign-in's throttle: requireCurrentPassword).
#include <openssl/crypto.h>

#include "accounts/base32.h"
#include "accounts/recovery_codes.h"
#include "accounts/totp.h"
#include "auth/unix_clock.h"
#include "common/error_codes.h"
#include "common/json_escape.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

constexpr std::string_view kTotpIssuer = "Code-Payload Service";

}  // namespace

void startTotp(Call& call) {
  if (call.who->totpEnabled) {
    throw Refusal{409, error_code::kConflict, std::nullopt, "TOTP is already on for your account; turn it off first."};
  }
  std::string secret = accounts::newTotpSecret();
  std::string out = "{";
  stringMember(out, "secret", accounts::encodeBase32(secret));
  stringMember(out, "otpauthUri", accounts::otpauthUri(kTotpIssuer, call.who->email, secret));
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
  const accounts::RecoveryCodes codes = accounts::newRecoveryCodes();
  // The confirming code's step becomes the last one used: sign-in refuses that code.
  call.accounts.accounts().enableTotp(call.who->id, *secret, *step, call.audit());
  call.accounts.accounts().replaceRecoveryCodes(call.who->id, codes.digests, call.audit());
  OPENSSL_cleanse(secret->data(), secret->size());
  call.accounts.forgetPendingTotp(digest);
  std::string out = "{\"recoveryCodes\":[";
  for (std::size_t i = 0; i < codes.codes.size(); ++i) {
    if (i > 0) out.push_back(',');
    common::appendJsonString(out, codes.codes[i]);
  }
  out += "]}";
  sendJson(call, 200, out);
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
