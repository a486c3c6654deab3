// Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP) with
// HMAC-SHA-1, as authenticator apps compute them: 30-second steps from the
// Unix epoch, 6 digits, and a window of one step either side for clock drift.
// A code is accepted at most once: the caller keeps the last accepted step
// and passes it back (docs/decisions.md D-D3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::accounts {

struct TotpSettings {
  std::int64_t stepSeconds = 30;
  int digits = 6;
  // Steps accepted before and after the current one.
  std::int64_t window = 1;
};

// Bytes of a new secret (RFC 4226 section 4 recommends 160 bits).
inline constexpr std::size_t kTotpSecretBytes = 20;

// The HOTP value of `secret` at `counter`, `digits` (6 to 8) decimal digits
// with leading zeros.
std::string hotpCode(std::string_view secret, std::uint64_t counter, int digits);

// The step `unixSeconds` falls in (floor division; steps before 1970 are
// negative).
std::int64_t totpStep(std::int64_t unixSeconds, std::int64_t stepSeconds);

// The TOTP value of `secret` at `unixSeconds`.
std::string totpCode(std::string_view secret, std::int64_t unixSeconds, const TotpSettings& settings = {});

// The step whose code `code` is, within the window around `unixSeconds`,
// and later than `lastAcceptedStep` (a code is never accepted twice, nor one
// older than the last accepted); nullopt otherwise. Every step of the window
// is computed and compared in constant time, whatever matches.
std::optional<std::int64_t> acceptTotp(std::string_view secret, std::string_view code, std::int64_t unixSeconds,
                                       std::optional<std::int64_t> lastAcceptedStep, const TotpSettings& settings = {});

// A new random secret of kTotpSecretBytes.
std::string newTotpSecret();

// The otpauth:// URI an authenticator app imports (Key Uri Format): label
// "<issuer>:<account>", secret in base32, issuer, SHA1, digits, period;
// issuer and account percent-encoded (RFC 3986 unreserved characters kept).
std::string otpauthUri(std::string_view issuer, std::string_view account, std::string_view secret,
                       const TotpSettings& settings = {});

}  // namespace codepayload::accounts
