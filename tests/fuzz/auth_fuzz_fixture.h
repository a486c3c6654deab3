// What both auth fuzz targets run against: a client registry (SQLite, in a
// fresh temporary directory) holding one client of each standing, a fixed
// pepper, two signing keys (an active EC P-256 key, so tokens are ES256 as in a
// new data directory, and a published RSA 2048 key, as during a rotation from
// RS256) and a fixed clock, so a given input always gets the same answer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "auth/client_registry.h"
#include "auth/secret_hasher.h"
#include "auth/signing_keys.h"
#include "auth/sql_client_registry.h"
#include "auth/unix_clock.h"

namespace codepayload::fuzz {

struct FuzzClient {
  std::string id;
  std::string secret;
  std::string organizationId;
  std::string scope;  // the client's scopes, space-delimited, as its tokens carry them
};

class AuthFuzzFixture {
 public:
  // The time every clock of the fixture reports (Unix seconds).
  static constexpr std::int64_t kNow = 1'800'000'000;
  static constexpr std::string_view kScope = "write:codes";

  // Creates the registry: organization "Fuzz Org" (Starter) with an active
  // client holding kScope, a blocked and a deleted one, and one holding only
  // "read:other"; organization "Fuzz Lapsed" with a client holding kScope,
  // then moved to the Free plan. Throws when anything cannot be set up.
  AuthFuzzFixture();
  ~AuthFuzzFixture();  // removes the temporary directory

  AuthFuzzFixture(const AuthFuzzFixture&) = delete;
  AuthFuzzFixture& operator=(const AuthFuzzFixture&) = delete;

  auth::ClientRegistry& registry() { return *registry_; }
  const auth::SecretHasher& hasher() const { return hasher_; }
  const auth::SigningKeySet& keys() const { return keys_; }
  // The active key (ES256) and the published one (RS256) of keys().
  const auth::SigningKey& ecKey() const { return ecKey_; }
  const auth::SigningKey& rsaKey() const { return rsaKey_; }
  static auth::UnixClock clock() {
    return [] { return kNow; };
  }

  const FuzzClient& active() const { return active_; }
  const FuzzClient& blocked() const { return blocked_; }
  const FuzzClient& deleted() const { return deleted_; }
  const FuzzClient& unscoped() const { return unscoped_; }
  const FuzzClient& lapsed() const { return lapsed_; }

  // `text` with every placeholder replaced: $ACTIVE_ID, $ACTIVE_SECRET,
  // $ACTIVE_ORG, and the same for BLOCKED, DELETED, UNSCOPED and LAPSED;
  // $KID (the active EC key's kid), $RSA_KID (the published RSA key's kid).
  std::string substitute(std::string_view text) const;

  // True when `text` contains one of the clients' secrets.
  bool containsSecret(std::string_view text) const;

  // The client whose id and secret these are, or nullptr.
  const FuzzClient* findClient(std::string_view id, std::string_view secret) const;

 private:
  std::filesystem::path directory_;
  auth::SecretHasher hasher_;
  auth::SigningKey rsaKey_;
  auth::SigningKey ecKey_;
  auth::SigningKeySet keys_;
  std::unique_ptr<auth::SqlClientRegistry> registry_;
  FuzzClient active_, blocked_, deleted_, unscoped_, lapsed_;
};

}  // namespace codepayload::fuzz
