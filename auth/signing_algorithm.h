// The JWS algorithms a token signing key can have (RFC 7518 §3.1 names).
#pragma once

#include <string_view>

namespace codepayload::auth {

enum class SigningAlgorithm {
  ES256,  // ECDSA P-256 with SHA-256
  RS256,  // RSASSA-PKCS1-v1_5 with SHA-256
};

// "ES256" or "RS256".
std::string_view signingAlgorithmName(SigningAlgorithm algorithm);

}  // namespace codepayload::auth
