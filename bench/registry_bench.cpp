// codepayload_registry_bench: the client registry's authentication lookup
// (SqlClientRegistry::findClientForAuthentication, the one query the token
// endpoint runs per request) in process, over a real registry in a temporary
// directory (WAL, the shipped migrations) holding 500 clients, as a token run
// of bench/run.sh does. Two cases: a known client id (cycling through all 500)
// and an unknown one (answered from the stand-in row, D-S5). Besides: the
// version RegistryView polls, and the status listing it reloads when that
// moves (both under the same lock as the lookup), and the presented secret's
// digest. Google Benchmark; CPU time.
// Used to compare database access layers (docs/performance.md).
//
// Usage: codepayload_registry_bench [Google Benchmark flags]
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "auth/random_strings.h"
#include "auth/secret_hasher.h"
#include "auth/sql_client_registry.h"

namespace {

using namespace codepayload::auth;

constexpr std::size_t kClients = 500;

// The registry and its clients, built once for every benchmark of the run.
class Fixture {
 public:
  Fixture() : hasher_(randomBase64Url(24)) {
    std::string pattern = (std::filesystem::temp_directory_path() / "codepayload-registry-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    dir_ = pattern;
    registry_ =
        std::make_unique<SqlClientRegistry>(RegistryDatabase::sqlite(dir_ / "registry.db"),
                                            std::filesystem::path(CODEPAYLOAD_SOURCE_DB_DIR) / "registry", hasher_);
    const Organization organization = registry_->createOrganization("Bench", Plan::Pro);
    for (std::size_t index = 0; index < kClients; ++index) {
      ids_.push_back(registry_->createClient(organization.id, "client", {"write:codes"}, "bench").client.id);
    }
  }
  ~Fixture() {
    registry_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;

  SqlClientRegistry& registry() { return *registry_; }
  const std::vector<std::string>& ids() const { return ids_; }

 private:
  std::filesystem::path dir_;
  SecretHasher hasher_;
  std::unique_ptr<SqlClientRegistry> registry_;
  std::vector<std::string> ids_;
};

Fixture& fixture() {
  static Fixture shared;
  return shared;
}

void BM_FindKnownClient(benchmark::State& state) {
  Fixture& shared = fixture();
  std::size_t next = 0;
  for (auto _ : state) {
    auto record = shared.registry().findClientForAuthentication(shared.ids()[next]);
    if (!record) {
      state.SkipWithError("a known client was not found");
      break;
    }
    benchmark::DoNotOptimize(record);
    next = (next + 1) % shared.ids().size();
  }
}
BENCHMARK(BM_FindKnownClient);

void BM_FindUnknownClient(benchmark::State& state) {
  Fixture& shared = fixture();
  const std::string unknown = std::string(kClientIdPrefix) + std::string(kClientIdRandomLength, '0');
  for (auto _ : state) {
    auto record = shared.registry().findClientForAuthentication(unknown);
    if (record) {
      state.SkipWithError("an unknown client was found");
      break;
    }
    benchmark::DoNotOptimize(record);
  }
}
BENCHMARK(BM_FindUnknownClient);

// The registry's change counter of client standings (RegistryView polls it
// four times a second): one SELECT of the row the triggers of
// db/registry/0006_client_standing_version.sql and 0007 move.
void BM_Version(benchmark::State& state) {
  Fixture& shared = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(shared.registry().version());
}
BENCHMARK(BM_Version);

// Every client's record, the reload RegistryView does when the version moved
// (D-T3, D-T6: only when a row may have changed), holding the registry's lock.
void BM_ListClientsForAuthentication(benchmark::State& state) {
  Fixture& shared = fixture();
  for (auto _ : state) {
    std::vector<ClientAuthRecord> records = shared.registry().listClientsForAuthentication();
    if (records.size() != kClients) {
      state.SkipWithError("the listing does not hold every client");
      break;
    }
    benchmark::DoNotOptimize(records);
  }
}
BENCHMARK(BM_ListClientsForAuthentication);

// The presented secret's HMAC-SHA-256, which the token endpoint computes for
// every request before it asks the view or the registry.
void BM_SecretDigest(benchmark::State& state) {
  const SecretHasher hasher(randomBase64Url(24));
  const std::string secret = randomBase64Url(32);
  for (auto _ : state) benchmark::DoNotOptimize(hasher.digest(secret));
}
BENCHMARK(BM_SecretDigest);

}  // namespace

BENCHMARK_MAIN();
