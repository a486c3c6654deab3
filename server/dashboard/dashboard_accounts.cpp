#include "server/dashboard/dashboard_accounts.h"

#include <openssl/crypto.h>

#include <utility>

namespace codepayload::server {

namespace {

// The audit context of the dashboard request this thread is handling.
thread_local const accounts::AuditContext* currentChangeAudit = nullptr;

}  // namespace

DashboardAccounts::ChangeAudit::ChangeAudit(const accounts::AuditContext& context) : previous_(currentChangeAudit) {
  currentChangeAudit = &context;
}

DashboardAccounts::ChangeAudit::~ChangeAudit() { currentChangeAudit = previous_; }

DashboardAccounts::DashboardAccounts(app::Registry& registry)
    : registry_(registry.openAuditedClients([] { return currentChangeAudit; })),
      accounts_(registry.openAccounts(auth::systemUnixSeconds)),
      passwordCheck_(*accounts_, passwords_),
      sessions_(*accounts_),
      signIn_(*accounts_, passwordCheck_, sessions_) {}

void DashboardAccounts::keepPendingTotp(const std::string& sessionDigest, std::string secret) {
  const std::lock_guard lock(pendingMutex_);
  auto [entry, inserted] = pendingTotp_.try_emplace(sessionDigest);
  if (!inserted) OPENSSL_cleanse(entry->second.data(), entry->second.size());
  entry->second = std::move(secret);
  if (!inserted) return;
  pendingOrder_.push_back(sessionDigest);
  while (pendingTotp_.size() > kMaxPendingTotp && !pendingOrder_.empty()) {
    const auto oldest = pendingTotp_.find(pendingOrder_.front());
    pendingOrder_.pop_front();
    if (oldest == pendingTotp_.end()) continue;
    OPENSSL_cleanse(oldest->second.data(), oldest->second.size());
    pendingTotp_.erase(oldest);
  }
}

std::optional<std::string> DashboardAccounts::pendingTotp(const std::string& sessionDigest) {
  const std::lock_guard lock(pendingMutex_);
  const auto found = pendingTotp_.find(sessionDigest);
  if (found == pendingTotp_.end()) return std::nullopt;
  return found->second;
}

void DashboardAccounts::forgetPendingTotp(const std::string& sessionDigest) {
  const std::lock_guard lock(pendingMutex_);
  const auto found = pendingTotp_.find(sessionDigest);
  if (found == pendingTotp_.end()) return;
  OPENSSL_cleanse(found->second.data(), found->second.size());
  pendingTotp_.erase(found);
  std::erase(pendingOrder_, sessionDigest);
}

void DashboardAccounts::onStandingChange(std::function<void()> listener) { standingListener_ = std::move(listener); }

void DashboardAccounts::standingChanged() noexcept {
  if (!standingListener_) return;
  try {
    standingListener_();
  } catch (...) {
    // The change is committed; the view's refresher picks it up (see the header).
  }
}

}  // namespace codepayload::server
