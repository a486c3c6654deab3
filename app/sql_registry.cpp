#include "app/sql_registry.h"

#include <Poco/Data/Session.h>

#include <stdexcept>
#include <utility>

#include "accounts/audit_log.h"
#include "accounts/sql_account_store.h"
#include "auth/sql_client_registry.h"
#include "auth/sql_usage_store.h"

namespace codepayload::app {

std::unique_ptr<auth::ClientRegistry> SqlRegistry::openClients(auth::UnixClock clock) {
  return std::make_unique<auth::SqlClientRegistry>(database_, migrationsDir_, secretHasher(), std::move(clock));
}

std::unique_ptr<auth::ClientRegistry> SqlRegistry::openAuditedClients(ChangeActor actor) {
  auto clients =
      std::make_unique<auth::SqlClientRegistry>(database_, migrationsDir_, secretHasher(), auth::systemUnixSeconds);
  clients->setChangeRecorder([actor = std::move(actor)](Poco::Data::Session& session,
                                                        const auth::RegistryChange& change) {
    const accounts::AuditContext* context = actor();
    if (context == nullptr) throw std::logic_error("a registry change without its audit context");
    accounts::appendAuditRecord(
        session,
        accounts::AuditRecord{0, auth::systemUnixSeconds(), context->actor, change.action, change.target,
                              change.organizationId, context->address, accounts::AuditResult::Success, change.detail});
  });
  return clients;
}

std::unique_ptr<accounts::AccountStore> SqlRegistry::openAccounts(auth::UnixClock clock) {
  return std::make_unique<accounts::SqlAccountStore>(database_, migrationsDir_, std::move(clock));
}

std::unique_ptr<auth::UsageStore> SqlRegistry::openUsage() { return std::make_unique<auth::SqlUsageStore>(database_); }

}  // namespace codepayload::app
