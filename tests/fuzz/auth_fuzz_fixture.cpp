#include "tests/fuzz/auth_fuzz_fixture.h"

#include <unistd.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "app/paths.h"
#include "app/sqlite_registry.h"
#include "auth/auth_service.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::fuzz {

namespace {

constexpr std::string_view kPepper = "fuzz-pepper-fuzz-pepper-fuzz-pep";  // 32 bytes

std::filesystem::path makeTemporaryDirectory() {
  std::string pattern = (std::filesystem::temp_directory_path() / "codepayload-fuzz-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
  return pattern;
}

FuzzClient makeClient(auth::ClientRegistry& registry, const auth::Organization& organization, std::string_view name,
                      const std::vector<std::string>& scopes) {
  auth::CreatedClient created = registry.createClient(organization.id, name, scopes, "tester");
  std::string scope;
  for (const std::string& entry : scopes) scope += (scope.empty() ? "" : " ") + entry;
  return {created.client.id, std::move(created.secret), organization.id, std::move(scope)};
}

void replaceAll(std::string& text, std::string_view placeholder, std::string_view value) {
  std::size_t at = text.find(placeholder);
  while (at != std::string::npos) {
    text.replace(at, placeholder.size(), value);
    at = text.find(placeholder, at + value.size());
  }
}

}  // namespace

AuthFuzzFixture::AuthFuzzFixture()
    : directory_(makeTemporaryDirectory()),
      hasher_(kPepper),
      rsaKey_(auth::SigningKey::generate(auth::SigningAlgorithm::RS256)),
      ecKey_(auth::SigningKey::generate(auth::SigningAlgorithm::ES256)),
      keys_(ecKey_, {rsaKey_}) {
  registry_ =
      std::make_unique<auth::SqlClientRegistry>(auth::RegistryDatabase::sqlite(directory_ / app::kRegistryDatabaseFile),
                                                auth::registryMigrationsDir(app::defaultSchemaDir()), hasher_, clock());
  const std::vector<std::string> scoped{std::string(kScope)};
  const auth::Organization organization = registry_->createOrganization("Fuzz Org", auth::Plan::Starter);
  active_ = makeClient(*registry_, organization, "active", scoped);
  blocked_ = makeClient(*registry_, organization, "blocked", scoped);
  registry_->setClientState(blocked_.id, auth::ClientState::Blocked);
  deleted_ = makeClient(*registry_, organization, "deleted", scoped);
  registry_->setClientState(deleted_.id, auth::ClientState::Deleted);
  // A client without write:codes, as a registry from before D-U9 may hold one.
  unscoped_ = makeClient(*registry_, organization, "unscoped", scoped);
  codepayload::testing::storeScopesBehindTheRegistry(
      auth::RegistryDatabase::sqlite(directory_ / app::kRegistryDatabaseFile), unscoped_.id, "read:other");
  unscoped_.scope = "read:other";
  const auth::Organization lapsedOrganization = registry_->createOrganization("Fuzz Lapsed", auth::Plan::Starter);
  lapsed_ = makeClient(*registry_, lapsedOrganization, "lapsed", scoped);
  registry_->setPlan(lapsedOrganization.id, auth::Plan::Free);
}

AuthFuzzFixture::~AuthFuzzFixture() {
  registry_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(directory_, ignored);
}

std::string AuthFuzzFixture::substitute(std::string_view text) const {
  std::string result(text);
  if (result.find('$') == std::string::npos) return result;
  const std::pair<std::string_view, const FuzzClient*> clients[] = {{"ACTIVE", &active_},
                                                                    {"BLOCKED", &blocked_},
                                                                    {"DELETED", &deleted_},
                                                                    {"UNSCOPED", &unscoped_},
                                                                    {"LAPSED", &lapsed_}};
  for (const auto& [name, client] : clients) {
    const std::string prefix = "$" + std::string(name);
    replaceAll(result, prefix + "_ID", client->id);
    replaceAll(result, prefix + "_SECRET", client->secret);
    replaceAll(result, prefix + "_ORG", client->organizationId);
  }
  replaceAll(result, "$RSA_KID", rsaKey_.kid());
  replaceAll(result, "$KID", keys_.active().kid());
  return result;
}

bool AuthFuzzFixture::containsSecret(std::string_view text) const {
  for (const FuzzClient* client : {&active_, &blocked_, &deleted_, &unscoped_, &lapsed_}) {
    if (text.find(client->secret) != std::string_view::npos) return true;
  }
  return false;
}

const FuzzClient* AuthFuzzFixture::findClient(std::string_view id, std::string_view secret) const {
  for (const FuzzClient* client : {&active_, &blocked_, &deleted_, &unscoped_, &lapsed_}) {
    if (client->id == id && client->secret == secret) return client;
  }
  return nullptr;
}

}  // namespace codepayload::fuzz
