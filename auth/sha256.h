// SHA-256 through OpenSSL's one-shot digest, for the key thumbprints and the
// token signatures.
#pragma once

#include <openssl/evp.h>

#include <array>
#include <string_view>

namespace codepayload::openssl {

using Sha256Digest = std::array<unsigned char, 32>;

// False when OpenSSL fails (out of memory); each caller reports that in its
// own error type.
inline bool sha256(std::string_view bytes, Sha256Digest& digest) {
  unsigned int length = 0;
  return EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr) == 1 &&
         length == digest.size();
}

}  // namespace codepayload::openssl
