// Everything the server needs for OAuth, wired around the client registry and
// the hasher of client secrets it is given (opened by app/registry.h), and the
// signing keys of one data directory:
//   <dataDir>/token-signing-key.pem   the signing key, 0600: an EC P-256 private key
//                                     (tokens are ES256; created on first use) or an
//                                     RSA private key of at least 2048 bits (RS256)
//   <dataDir>/token-signing-key.previous.pem, token-signing-key.next.pem
//                                     optional, 0600, each EC P-256 or RSA: keys that
//                                     are published in the JWKS and accepted, but do
//                                     not sign
// A background thread refreshes the registry view every `registryPollInterval`.
//
// Key rotation (checklist JK-05), each step a restart of the server:
//  1. put the next key in token-signing-key.next.pem (e.g. `openssl genpkey
//     -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out token-signing-key.next.pem
//     && chmod 600 ...`; an RSA key instead, e.g. `openssl genpkey -algorithm RSA
//     -pkeyopt rsa_keygen_bits:2048 -out ...`, keeps RS256 for verifiers that need
//     it): it is published, not used; wait until JWKS caches elsewhere have it;
//  2. rename token-signing-key.pem to token-signing-key.previous.pem and
//     token-signing-key.next.pem to token-signing-key.pem: the new key signs,
//     tokens of the old one keep verifying and it stays in the JWKS;
//  3. after the token lifetime plus leeway, remove the .previous file.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "auth/auth_throttle.h"
#include "auth/bearer_authenticator.h"
#include "auth/client_registry.h"
#include "auth/secret_hasher.h"
#include "auth/token_endpoint.h"
#include "auth/token_settings.h"

namespace codepayload::auth {

inline constexpr std::string_view kSigningKeyFile = "token-signing-key.pem";
inline constexpr std::string_view kPreviousSigningKeyFile = "token-signing-key.previous.pem";
inline constexpr std::string_view kNextSigningKeyFile = "token-signing-key.next.pem";

// The registry migrations inside a schema folder (db/): schemaDir / "registry".
std::filesystem::path registryMigrationsDir(const std::filesystem::path& schemaDir);

struct AuthSettings {
  std::filesystem::path dataDir = "data";  // created (0700) when absent
  TokenSettings token;
  ThrottleSettings throttle;
  TokenEndpointLimits tokenEndpointLimits;
  std::size_t tokenCacheCapacity = 65536;
  std::chrono::milliseconds registryPollInterval{250};
};

class AuthService {
 public:
  // Opens or creates the signing keys listed above, loads the registry view
  // from `registry` and starts the refresher thread. `hasher` must outlive the
  // service. Throws (RegistryError, SigningKeyError, std::filesystem errors)
  // with a readable message when something cannot be opened.
  AuthService(const AuthSettings& settings, std::unique_ptr<ClientRegistry> registry, const SecretHasher& hasher,
              UnixClock clock = systemUnixSeconds);
  ~AuthService();  // stops the refresher thread

  AuthService(const AuthService&) = delete;
  AuthService& operator=(const AuthService&) = delete;

  const TokenEndpoint& tokenEndpoint() const;
  const BearerAuthenticator& bearerAuthenticator() const;
  // {"keys":[...]} for GET /.well-known/jwks.json (Content-Type application/jwk-set+json
  // or application/json).
  const std::string& jwksJson() const;
  ClientRegistry& registry();

  // Reloads the registry view now if the registry changed (the refresher thread
  // does this on its own; for tests and for a server that wants it at once).
  void refreshRegistryView();

  // How the registry view's checks went (the server's metrics and
  // /healthz/ready). A check reads the registry's version, and the whole view
  // when it changed.
  struct RegistryRefresh {
    // When a check last read the registry (the first: the view's load at start).
    std::chrono::steady_clock::time_point lastSuccess;
    bool lastFailed = false;     // the latest check could not read the registry
    std::uint64_t failures = 0;  // checks that could not read it, since start
  };
  RegistryRefresh registryRefresh() const;
  std::chrono::milliseconds registryPollInterval() const;

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace codepayload::auth
