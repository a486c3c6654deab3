#include "accounts/password_reset_codes.h"

#include <algorithm>

#include "accounts/sha256_hex.h"
#include "auth/random_strings.h"

namespace codepayload::accounts {

namespace {

bool isBase64UrlCharacter(char character) {
  return (character >= 'A' && character <= 'Z') || (character >= 'a' && character <= 'z') ||
         (character >= '0' && character <= '9') || character == '-' || character == '_';
}

}  // namespace

ResetCode newResetCode() {
  std::string code = auth::randomBase64Url(kResetCodeBytes);
  std::string digest = sha256Hex(code);
  return ResetCode{std::move(code), std::move(digest)};
}

std::optional<std::string> resetCodeDigest(std::string_view code) {
  if (code.size() != kResetCodeLength || !std::all_of(code.begin(), code.end(), isBase64UrlCharacter)) {
    return std::nullopt;
  }
  return sha256Hex(code);
}

}  // namespace codepayload::accounts
