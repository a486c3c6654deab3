#include "accounts/password_reset_codes.h"

#include <algorithm>

#include "accounts/sha256_hex.h"
#include "auth/random_strings.h"
#include "common/ascii.h"

namespace codepayload::accounts {

ResetCode newResetCode() {
  std::string code = auth::randomBase64Url(kResetCodeBytes);
  std::string digest = sha256Hex(code);
  return ResetCode{std::move(code), std::move(digest)};
}

std::optional<std::string> resetCodeDigest(std::string_view code) {
  if (code.size() != kResetCodeLength || !std::all_of(code.begin(), code.end(), common::isBase64UrlCharacter)) {
    return std::nullopt;
  }
  return sha256Hex(code);
}

}  // namespace codepayload::accounts
