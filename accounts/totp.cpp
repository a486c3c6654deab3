#include "accounts/totp.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "accounts/base32.h"

namespace codepayload::accounts {

namespace {

std::uint32_t powerOfTen(int digits) {
  std::uint32_t value = 1;
  for (int i = 0; i < digits; ++i) value *= 10;
  return value;
}

std::string percentEncoded(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') || byte == '-' ||
        byte == '.' || byte == '_' || byte == '~') {
      encoded.push_back(c);
    } else {
      encoded.push_back('%');
      encoded.push_back(kHex[byte >> 4]);
      encoded.push_back(kHex[byte & 0x0F]);
    }
  }
  return encoded;
}

}  // namespace

std::string hotpCode(std::string_view secret, std::uint64_t counter, int digits) {
  if (digits < 6 || digits > 8) throw std::invalid_argument("HOTP codes have 6 to 8 digits");
  unsigned char message[8];
  for (int i = 7; i >= 0; --i) {
    message[i] = static_cast<unsigned char>(counter & 0xFF);
    counter >>= 8;
  }
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int macLength = 0;
  if (HMAC(EVP_sha1(), secret.data(), static_cast<int>(secret.size()), message, sizeof message, mac, &macLength) ==
          nullptr ||
      macLength != 20) {
    throw std::runtime_error("HMAC-SHA-1 failed");
  }
  // Dynamic truncation (RFC 4226 section 5.3).
  const unsigned offset = mac[19] & 0x0F;
  const std::uint32_t binary = (static_cast<std::uint32_t>(mac[offset] & 0x7F) << 24) |
                               (static_cast<std::uint32_t>(mac[offset + 1]) << 16) |
                               (static_cast<std::uint32_t>(mac[offset + 2]) << 8) | mac[offset + 3];
  std::uint32_t value = binary % powerOfTen(digits);
  std::string code(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i) {
    code[static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return code;
}

std::int64_t totpStep(std::int64_t unixSeconds, std::int64_t stepSeconds) {
  std::int64_t step = unixSeconds / stepSeconds;
  if (unixSeconds % stepSeconds != 0 && unixSeconds < 0) --step;
  return step;
}

std::string totpCode(std::string_view secret, std::int64_t unixSeconds, const TotpSettings& settings) {
  return hotpCode(secret, static_cast<std::uint64_t>(totpStep(unixSeconds, settings.stepSeconds)), settings.digits);
}

std::optional<std::int64_t> acceptTotp(std::string_view secret, std::string_view code, std::int64_t unixSeconds,
                                       std::optional<std::int64_t> lastAcceptedStep, const TotpSettings& settings) {
  if (code.size() != static_cast<std::size_t>(settings.digits)) return std::nullopt;
  const std::int64_t current = totpStep(unixSeconds, settings.stepSeconds);
  std::optional<std::int64_t> accepted;
  for (std::int64_t step = current - settings.window; step <= current + settings.window; ++step) {
    const std::string expected = hotpCode(secret, static_cast<std::uint64_t>(step), settings.digits);
    const bool matches = CRYPTO_memcmp(expected.data(), code.data(), expected.size()) == 0;
    const bool fresh = !lastAcceptedStep || step > *lastAcceptedStep;
    if (matches && fresh && !accepted) accepted = step;
  }
  return accepted;
}

std::string newTotpSecret() {
  std::string secret(kTotpSecretBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(secret.data()), static_cast<int>(secret.size())) != 1) {
    throw std::runtime_error("the random generator failed");
  }
  return secret;
}

std::string otpauthUri(std::string_view issuer, std::string_view account, std::string_view secret,
                       const TotpSettings& settings) {
  return "otpauth://totp/" + percentEncoded(issuer) + ":" + percentEncoded(account) +
         "?secret=" + encodeBase32(secret) + "&issuer=" + percentEncoded(issuer) +
         "&algorithm=SHA1&digits=" + std::to_string(settings.digits) +
         "&period=" + std::to_string(settings.stepSeconds);
}

}  // namespace codepayload::accounts
