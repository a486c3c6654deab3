// Identifiers and secrets from OpenSSL's CSPRNG (RAND_bytes). Throws
// std::runtime_error if the generator fails (never silently weak).
#pragma once

#include <cstddef>
#include <string>

namespace codepayload::auth {

// `byteCount` random bytes, base64url-encoded without padding
// (32 bytes -> 43 characters).
std::string randomBase64Url(std::size_t byteCount);

// `length` characters drawn uniformly from [0-9A-Za-z] (rejection sampling).
std::string randomBase62(std::size_t length);

}  // namespace codepayload::auth
