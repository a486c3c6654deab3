// Settings shared by the token issuer and the access-token verifier.
#pragma once

#include <cstdint>
#include <string>

namespace codepayload::auth {

struct TokenSettings {
  std::string issuer = "urn:codepayload:token-service";  // `iss`, compared exactly
  std::string audience = "urn:codepayload:api";          // `aud`, compared exactly
  std::int64_t lifetimeSeconds = 3600;                   // `expires_in`, exp - iat
  std::int64_t leewaySeconds = 30;                       // clock skew allowed on exp/nbf/iat
};

}  // namespace codepayload::auth
