// Base32 (RFC 4648 section 6, alphabet A-Z 2-7) as authenticator apps read
// TOTP secrets: encoded without padding.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace codepayload::accounts {

// Upper case, no padding.
std::string encodeBase32(std::string_view bytes);

// Upper or lower case, no padding, no other characters, and the unused bits
// of the last character zero (the one canonical spelling of its bytes);
// nullopt otherwise.
std::optional<std::string> decodeBase32(std::string_view text);

}  // namespace codepayload::accounts
