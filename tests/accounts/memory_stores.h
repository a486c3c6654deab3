// In-memory stand-ins for the registry in the accounts unit tests: a session
// store and a credential source, plus a settable clock.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "accounts/credential_source.h"
#include "accounts/session_manager.h"
#include "auth/unix_clock.h"

namespace codepayload::accounts::testing {

inline constexpr std::int64_t kTestEpoch = 1'800'000'000;

class FakeClock {
 public:
  auth::UnixClock clock() const {
    return [now = now_] { return now->load(); };
  }
  std::int64_t now() const { return now_->load(); }
  void advance(std::int64_t seconds) { now_->fetch_add(seconds); }

 private:
  std::shared_ptr<std::atomic<std::int64_t>> now_ = std::make_shared<std::atomic<std::int64_t>>(kTestEpoch);
};

class MemorySessionStore final : public SessionStore {
 public:
  void insertSession(const StoredSession& session) override { sessions[session.idDigest] = session; }
  std::optional<StoredSession> findSession(std::string_view idDigest) override {
    const auto found = sessions.find(std::string(idDigest));
    if (found == sessions.end()) return std::nullopt;
    return found->second;
  }
  void touchSession(std::string_view idDigest, std::int64_t lastSeenAt) override {
    sessions.at(std::string(idDigest)).lastSeenAt = lastSeenAt;
  }
  void removeSession(std::string_view idDigest) override { sessions.erase(std::string(idDigest)); }
  std::size_t removeSessionsOf(std::string_view principalId) override {
    return std::erase_if(sessions, [&](const auto& item) { return item.second.principalId == principalId; });
  }

  std::map<std::string, StoredSession> sessions;
};

class MemoryCredentialSource final : public CredentialSource {
 public:
  std::optional<Credentials> findCredentials(std::string_view emailKey) override {
    ++lookups;
    const auto found = accounts.find(std::string(emailKey));
    if (found == accounts.end()) return std::nullopt;
    return found->second;
  }
  bool recordTotpStep(std::string_view principalId, std::int64_t step) override {
    for (auto& [email, credentials] : accounts) {
      if (credentials.principalId != principalId) continue;
      if (credentials.lastTotpStep && *credentials.lastTotpStep >= step) return false;
      credentials.lastTotpStep = step;
      return true;
    }
    return false;
  }
  bool useRecoveryCode(std::string_view principalId, std::string_view digest) override {
    return recoveryCodes.erase(std::string(principalId) + " " + std::string(digest)) == 1;
  }
  void replacePasswordHash(std::string_view principalId, std::string_view passwordHash) override {
    for (auto& [email, credentials] : accounts) {
      if (credentials.principalId == principalId) credentials.passwordHash = passwordHash;
    }
  }

  std::map<std::string, Credentials> accounts;  // by email key
  std::set<std::string> recoveryCodes;          // "<principal> <digest>"
  std::size_t lookups = 0;                      // findCredentials calls
};

}  // namespace codepayload::accounts::testing
