#include "app/sqlite_registry.h"

#include <Poco/Data/Session.h>
#include <sys/stat.h>

#include <optional>
#include <stdexcept>
#include <utility>

#include "accounts/sql_account_store.h"
#include "auth/sql_client_registry.h"
#include "auth/sql_usage_store.h"

namespace codepayload::app {

namespace {

// One registry.db for every part, each part with its own connection; the
// pepper beside it.
class SqliteRegistry final : public Registry {
 public:
  explicit SqliteRegistry(const RegistryLocation& location)
      : location_(location), database_(auth::RegistryDatabase::sqlite(location.dataDir / kRegistryDatabaseFile)) {}

  std::string name() const override { return database_.name; }

  bool exists() const override { return std::filesystem::exists(database_.file); }

  const auth::SecretHasher& secretHasher() override {
    if (!hasher_) {
      if (std::filesystem::create_directories(location_.dataDir)) ::chmod(location_.dataDir.c_str(), S_IRWXU);
      hasher_.emplace(auth::SecretHasher::loadOrCreate(location_.dataDir / kPepperFile));
    }
    return *hasher_;
  }

  std::unique_ptr<auth::ClientRegistry> openClients(auth::UnixClock clock) override {
    return openSqliteClients(std::move(clock));
  }

  std::unique_ptr<auth::ClientRegistry> openAuditedClients(ChangeActor actor) override {
    std::unique_ptr<auth::SqlClientRegistry> clients = openSqliteClients(auth::systemUnixSeconds);
    clients->setChangeRecorder(
        [actor = std::move(actor)](Poco::Data::Session& session, const auth::RegistryChange& change) {
          const accounts::AuditContext* context = actor();
          if (context == nullptr) throw std::logic_error("a registry change without its audit context");
          accounts::appendAuditRecord(
              session, accounts::AuditRecord{0, auth::systemUnixSeconds(), context->actor, change.action, change.target,
                                             change.organizationId, context->address, accounts::AuditResult::Success,
                                             change.detail});
        });
    return clients;
  }

  std::unique_ptr<accounts::AccountStore> openAccounts(auth::UnixClock clock) override {
    return std::make_unique<accounts::SqlAccountStore>(database_, location_.migrationsDir, std::move(clock));
  }

  std::unique_ptr<auth::UsageStore> openUsage() override { return std::make_unique<auth::SqlUsageStore>(database_); }

 private:
  std::unique_ptr<auth::SqlClientRegistry> openSqliteClients(auth::UnixClock clock) {
    const auth::SecretHasher& hasher = secretHasher();
    return std::make_unique<auth::SqlClientRegistry>(database_, location_.migrationsDir, hasher, std::move(clock));
  }

  RegistryLocation location_;
  auth::RegistryDatabase database_;
  std::optional<auth::SecretHasher> hasher_;
};

}  // namespace

std::unique_ptr<Registry> openSqliteRegistry(const RegistryLocation& location) {
  return std::make_unique<SqliteRegistry>(location);
}

}  // namespace codepayload::app
