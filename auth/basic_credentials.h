// Strict parser for `Authorization: Basic` client credentials (RFC 7617,
// RFC 6749 §2.3.1). Pure function of the header values; no HTTP types.
//
// Accepted: exactly one Authorization value; optional surrounding SP/HTAB;
// the scheme "Basic" in any letter case; one or more SP; then strict padded
// base64 (see base64.h) and nothing else. The decoded bytes are split at the
// FIRST ':'; both halves are application/x-www-form-urlencoded-decoded ('+' ->
// space, %XX; a bad escape is an error). Both must be non-empty and within the
// length caps below. The decoded bytes are not otherwise interpreted (NUL and
// non-UTF-8 bytes are passed through; they simply never match a client).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace codepayload::auth {

inline constexpr std::size_t kMaxClientIdLength = 128;      // decoded bytes
inline constexpr std::size_t kMaxClientSecretLength = 256;  // decoded bytes

struct BasicCredentials {
  std::string clientId;
  std::string clientSecret;
};

// Why a set of Authorization values is not usable Basic credentials. Every
// value other than Ok is answered identically (401 invalid_client) by the token
// endpoint; the distinction is for tests and logs.
enum class BasicCredentialsError {
  Ok,
  Missing,          // no Authorization value at all
  MultipleHeaders,  // more than one Authorization value
  NotBasic,         // another scheme (Bearer, Digest, ...), or no scheme
  MissingToken,     // "Basic" with nothing after it
  BadBase64,        // not strict, canonical, padded base64
  NoColon,          // decoded text has no ':'
  BadEscape,        // a bad %-escape in the id or the secret
  EmptyClientId,
  EmptyClientSecret,
  ClientIdTooLong,      // over kMaxClientIdLength after decoding
  ClientSecretTooLong,  // over kMaxClientSecretLength after decoding
};

// A short stable name for `error` ("ok", "missing", "multipleHeaders", ...).
std::string_view basicCredentialsErrorName(BasicCredentialsError error);

// `authorizationValues`: every Authorization header value of the request, in
// order (passing at most the first two is enough: two already fail). Fills
// `credentials` only on Ok.
BasicCredentialsError parseBasicCredentials(std::span<const std::string_view> authorizationValues,
                                            BasicCredentials& credentials);

}  // namespace codepayload::auth
