// Signs JWS signing inputs ("<header>.<payload>", RFC 7515 §5.1) with a
// private key through OpenSSL, for the token issuer: the signature work of a
// token and nothing around it (no JSON, no streams, no context set up per
// token).
//
//   ES256: ECDSA P-256 over SHA-256, written as R || S (32 big-endian bytes
//          each, RFC 7518 §3.4) in its low-S spelling (ecdsa_low_s.h);
//   RS256: RSASSA-PKCS1-v1_5 over SHA-256 (RFC 7518 §3.3), the modulus size.
#pragma once

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "auth/signing_algorithm.h"

namespace codepayload::auth {

// OpenSSL failed to sign (out of memory, or a key it cannot use).
struct JwsSigningError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class JwsSigner {
 public:
  // Prepares signing with `key` (an EC P-256 key for ES256, an RSA key for
  // RS256; the caller has checked which). Throws JwsSigningError when OpenSSL
  // cannot set the key up for signing.
  JwsSigner(EVP_PKEY* key, SigningAlgorithm algorithm);
  ~JwsSigner();

  JwsSigner(const JwsSigner&) = delete;
  JwsSigner& operator=(const JwsSigner&) = delete;

  // The signature of `signingInput` as JWS writes it (before base64url).
  // Safe to call from several threads at once. Throws JwsSigningError.
  std::string sign(std::string_view signingInput) const;

 private:
  struct Prepared;
  SigningAlgorithm algorithm_;
  std::unique_ptr<Prepared> prepared_;
};

}  // namespace codepayload::auth
