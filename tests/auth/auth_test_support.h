// Helpers shared by the codepayload_auth tests: a settable clock, temporary
// directories, header builders, test keys of both algorithms, and a test-only
// JWT signer that can forge any header, payload or signature.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "app/registry.h"
#include "auth/auth_service.h"
#include "auth/client_registry.h"
#include "auth/signing_keys.h"
#include "auth/unix_clock.h"

namespace codepayload::auth {

// gtest shows a SigningAlgorithm parameter by its name.
inline void PrintTo(SigningAlgorithm algorithm, std::ostream* out) { *out << signingAlgorithmName(algorithm); }

}  // namespace codepayload::auth

namespace codepayload::auth::testing {

inline constexpr std::int64_t kTestEpoch = 1'800'000'000;

class FakeClock {
 public:
  explicit FakeClock(std::int64_t start = kTestEpoch) : now_(std::make_shared<std::atomic<std::int64_t>>(start)) {}
  UnixClock clock() const {
    return [now = now_] { return now->load(); };
  }
  std::int64_t now() const { return now_->load(); }
  void set(std::int64_t value) { now_->store(value); }
  void advance(std::int64_t seconds) { now_->fetch_add(seconds); }

 private:
  std::shared_ptr<std::atomic<std::int64_t>> now_;
};

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The whole content of `file` ("" when it cannot be read).
std::string readWholeFile(const std::filesystem::path& file);

// The registry migrations of this source tree (db/registry).
std::filesystem::path sourceRegistryMigrations();

// An AuthService on the SQLite registry in `dataDir` (migrated from the
// source tree), opened as the server opens it (app/registry.h).
struct OpenedAuthService {
  explicit OpenedAuthService(const std::filesystem::path& dataDir, const AuthSettings& settings = {})
      : registry(app::openRegistry({dataDir, sourceRegistryMigrations(), std::nullopt, {}})),
        service(settings, registry->signingKeys(), {}, registry->openClients(systemUnixSeconds),
                registry->secretHasher()) {}

  std::unique_ptr<app::Registry> registry;
  AuthService service;
};

// "Basic " + base64(text): no form-encoding step (the checklist's Braw).
std::string basicRaw(std::string_view text);
// "Basic " + base64(FE(id) ":" FE(secret)), FE = form-urlencoding of every
// byte outside [A-Za-z0-9*-._] (the checklist's B(u,p)).
std::string basic(std::string_view id, std::string_view secret);
// Form-urlencodes every byte outside [A-Za-z0-9*-._] (space -> %20).
std::string formEncode(std::string_view text);

// Test keys kept in the build tree (RSA generation is slow), one pair per
// algorithm: EC P-256 keys for ES256, RSA 2048 keys for RS256.
const SigningKey& sharedTestKey(SigningAlgorithm algorithm);
// A second, independent key of the same algorithm.
const SigningKey& otherTestKey(SigningAlgorithm algorithm);
// Copies the PEM file of sharedTestKey() / otherTestKey() to `destination`
// (mode 0600), so an AuthService on a new data dir need not generate a key.
void installSharedTestKey(const std::filesystem::path& destination, SigningAlgorithm algorithm);
void installOtherTestKey(const std::filesystem::path& destination, SigningAlgorithm algorithm);

// Both algorithms, for INSTANTIATE_TEST_SUITE_P, and the test name of each
// ("ES256", "RS256").
inline const auto kBothAlgorithms = ::testing::Values(SigningAlgorithm::ES256, SigningAlgorithm::RS256);
std::string algorithmTestName(const ::testing::TestParamInfo<SigningAlgorithm>& info);
// The other algorithm of the two.
SigningAlgorithm otherAlgorithm(SigningAlgorithm algorithm);

// Which of the two spellings (R, S) and (R, n - S) of an ECDSA signature to write.
enum class EcdsaS { Low, High };  // S <= n/2 (what the issuer writes), S > n/2

struct JwsSignatureOptions {
  std::string_view digest = "SHA256";  // "SHA384", "SHA512": the RS384/ES384-style digests
  bool derEcdsa = false;               // EC keys: the DER ECDSA-Sig-Value instead of R||S
  EcdsaS ecdsaS = EcdsaS::Low;         // EC keys, R||S: which spelling of S
};
// base64url(header) "." base64url(payload) "." base64url(signature by `key`
// over the first two segments), with the key's own kind of signature:
// RSASSA-PKCS1-v1_5 for RSA, ECDSA as R||S (32 bytes each, RFC 7518 §3.4)
// for EC, in the low-S spelling unless options ask for the high one. Signed
// with OpenSSL directly: any header, any payload.
std::string signJws(std::string_view headerJson, std::string_view payloadJson, const SigningKey& key,
                    const JwsSignatureOptions& options = {});
// Same with an HMAC-SHA-256 "signature" keyed with `secret`.
std::string signHs256(std::string_view headerJson, std::string_view payloadJson, std::string_view secret);

// A ClientRegistry that forwards to another one, counts the lookups the token
// endpoint makes, and can be switched to fail like a broken database.
class FaultInjectingRegistry final : public ClientRegistry {
 public:
  explicit FaultInjectingRegistry(ClientRegistry& inner) : inner_(inner) {}

  bool failing = false;
  int authenticationLookups = 0;

  Organization createOrganization(std::string_view name, Plan plan) override;
  void setPlan(std::string_view organizationId, Plan plan) override;
  void setSubscription(std::string_view organizationId, Subscription subscription) override;
  std::optional<Organization> findOrganization(std::string_view organizationId) override;
  std::vector<Organization> listOrganizations() override;
  CreatedClient createClient(std::string_view organizationId, std::string_view name,
                             const std::vector<std::string>& scopes, std::string_view createdBy) override;
  CreatedClient replaceClient(std::string_view clientId, std::string_view createdBy) override;
  std::vector<ClientRecord> listClients(std::string_view organizationId) override;
  std::optional<ClientRecord> findClient(std::string_view clientId) override;
  void setClientState(std::string_view clientId, ClientState state) override;
  std::optional<ClientAuthRecord> findClientForAuthentication(std::string_view clientId) override;
  std::vector<ClientAuthRecord> listClientsForAuthentication() override;
  std::uint64_t version() override;

 private:
  void check() const;
  ClientRegistry& inner_;
};

}  // namespace codepayload::auth::testing
