// What the dashboard's handlers work with, opened from the registry:
// its own connection to the client registry (changes reach the token
// endpoint and the bearer check through the registry's version, like a change
// made with codepayload-admin, and at once through standingChanged), the people's accounts
// and the audit log, the password hasher, the one throttled password check
// every endpoint asking for a password uses, sessions and sign-in, and the
// TOTP secrets being enrolled. Every change of the registry made through it is
// audited in the change's transaction with the actor and address of the
// request making it (ChangeAudit), as the admin CLI does (D-D8).
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "accounts/account_store.h"
#include "accounts/audit_log.h"
#include "accounts/password_check.h"
#include "accounts/password_hasher.h"
#include "accounts/session_manager.h"
#include "accounts/sign_in.h"
#include "app/registry.h"
#include "auth/client_registry.h"

namespace codepayload::server {

class DashboardAccounts {
 public:
  // Opens its parts of `registry`, which must outlive it. Throws with a
  // readable message when it cannot.
  explicit DashboardAccounts(app::Registry& registry);

  DashboardAccounts(const DashboardAccounts&) = delete;
  DashboardAccounts& operator=(const DashboardAccounts&) = delete;

  auth::ClientRegistry& registry() { return *registry_; }
  accounts::AccountStore& accounts() { return *accounts_; }
  const accounts::PasswordHasher& passwords() const { return passwords_; }
  // Every check of a password (sign-in, and the password asked again before
  // a change) goes through this one, so all share its throttle.
  accounts::PasswordCheck& passwordCheck() { return passwordCheck_; }
  accounts::SessionManager& sessions() { return sessions_; }
  accounts::SignInService& signIn() { return signIn_; }

  // While one lives on a thread, the registry changes that thread makes are
  // audited as made by `context`; a change made without one is refused (the
  // registry call throws), so no dashboard change goes unrecorded.
  class ChangeAudit {
   public:
    explicit ChangeAudit(const accounts::AuditContext& context);
    ~ChangeAudit();
    ChangeAudit(const ChangeAudit&) = delete;
    ChangeAudit& operator=(const ChangeAudit&) = delete;

   private:
    const accounts::AuditContext* previous_;
  };

  // Called once at start: what standingChanged runs (the server refreshes its
  // registry view).
  void onStandingChange(std::function<void()> listener);
  // Called by an endpoint after it changed a client's or an organization's
  // standing, before it answers, so the change holds for the very next token
  // or API request to this server (D-T6). Never throws: a listener that fails
  // leaves the change to the view's own refresher (within 250 ms), which
  // counts and logs its failures.
  void standingChanged() noexcept;

  // The TOTP secret (raw bytes) being enrolled by the session with id digest
  // `sessionDigest`: kept in memory until confirmed, replaced by a new start,
  // forgotten at confirmation or sign-out. At most kMaxPendingTotp are kept;
  // beyond that the oldest is dropped (D-D28).
  static constexpr std::size_t kMaxPendingTotp = 4096;
  void keepPendingTotp(const std::string& sessionDigest, std::string secret);
  std::optional<std::string> pendingTotp(const std::string& sessionDigest);
  void forgetPendingTotp(const std::string& sessionDigest);

 private:
  std::unique_ptr<auth::ClientRegistry> registry_;
  std::unique_ptr<accounts::AccountStore> accounts_;
  accounts::PasswordHasher passwords_;
  accounts::PasswordCheck passwordCheck_;
  accounts::SessionManager sessions_;
  accounts::SignInService signIn_;
  std::function<void()> standingListener_;
  std::mutex pendingMutex_;
  std::map<std::string, std::string, std::less<>> pendingTotp_;
  std::deque<std::string> pendingOrder_;  // digests, oldest first
};

}  // namespace codepayload::server
