// Everything the server needs for OAuth, wired around the client registry,
// the hasher of client secrets and the signing keys it is given (opened by
// app/registry.h). A background thread refreshes the registry view every
// `registryPollInterval`.
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

// The registry migrations inside a schema folder (db/): schemaDir / "registry".
std::filesystem::path registryMigrationsDir(const std::filesystem::path& schemaDir);

struct AuthSettings {
  TokenSettings token;
  ThrottleSettings throttle;
  TokenEndpointLimits tokenEndpointLimits;
  std::size_t tokenCacheCapacity = 65536;
  std::chrono::milliseconds registryPollInterval{250};
};

class AuthService {
 public:
  // Signs with `keys`, loads the registry view from `registry` and starts the
  // refresher thread. `reloadKeys` (empty: the keys stay as given) reads the
  // keys in force again; the refresher calls it every second, so that a
  // rotation published in a shared registry takes effect here within a second
  // of its time. `hasher` must outlive the service. Throws RegistryError when
  // the registry cannot be read.
  AuthService(const AuthSettings& settings, SigningKeySet keys, std::function<SigningKeySet()> reloadKeys,
              std::unique_ptr<ClientRegistry> registry, const SecretHasher& hasher,
              UnixClock clock = systemUnixSeconds);
  ~AuthService();  // stops the refresher thread

  AuthService(const AuthService&) = delete;
  AuthService& operator=(const AuthService&) = delete;

  const TokenEndpoint& tokenEndpoint() const;
  const BearerAuthenticator& bearerAuthenticator() const;
  // {"keys":[...]} for GET /.well-known/jwks.json (Content-Type application/jwk-set+json
  // or application/json).
  std::string jwksJson() const;
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
