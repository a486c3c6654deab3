// Strict base64 (RFC 4648 §4, for HTTP Basic) and base64url (§5, for JWS).
// "Strict" means every accepted input is the one canonical encoding of its
// bytes: no whitespace, no foreign characters, no data after padding, zero
// unused bits in the last group. Poco's decoders accept all of these.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace codepayload::auth {

// Standard alphabet, padded, length % 4 == 0, non-empty. Writes the bytes to
// `out` (cleared first) and returns true; false (out unspecified) otherwise.
bool decodeBase64Strict(std::string_view text, std::string& out);

// URL alphabet, no padding, length % 4 != 1, non-empty. Same contract.
bool decodeBase64UrlStrict(std::string_view text, std::string& out);

// URL alphabet, no padding.
std::string encodeBase64Url(std::span<const unsigned char> bytes);
std::string encodeBase64Url(std::string_view bytes);

// Standard alphabet, padded.
std::string encodeBase64(std::string_view bytes);

}  // namespace codepayload::auth
