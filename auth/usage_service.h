// API client usage for the dashboard: owns the in-memory counter
// the request path adds to (auth/usage_counter.h), the background writer that
// adds the counts to the registry every flush interval (and once more on
// stop), and the reads, which include the counts not yet written, so the
// dashboard is exact at once. The request path never waits for the database.
//
// A write that fails keeps its counts for the next round (added back to the
// counter) and is logged once, until a write succeeds again.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "auth/client_registry.h"
#include "auth/unix_clock.h"
#include "auth/usage_counter.h"
#include "auth/usage_store.h"

namespace codepayload::auth {

// One UTC day of usage, as the dashboard shows it.
struct DailyUsage {
  std::string day;  // "YYYY-MM-DD" (UTC)
  std::uint64_t tokensIssued = 0;
  std::uint64_t codesAccepted = 0;
  std::uint64_t codesRejected = 0;

  bool operator==(const DailyUsage&) const = default;
};

class UsageService {
 public:
  // A line for the operational log (a failed write, or writing again after
  // failures); never holds a secret.
  using Log = std::function<void(const std::string& message)>;
  static constexpr int kMaxDays = 366;

  // Writes to `store` (app/registry.h opens one) and starts the writer
  // thread, which writes every `flushInterval`.
  UsageService(std::unique_ptr<UsageStore> store, std::chrono::milliseconds flushInterval, Log log,
               UnixClock clock = systemUnixSeconds);
  ~UsageService();  // stop()

  UsageService(const UsageService&) = delete;
  UsageService& operator=(const UsageService&) = delete;

  // The request path's hooks, dated by the clock: a token issued; a /codes
  // request answered with `accepted` codes and `rejected` failed items.
  void tokenIssued(std::string_view clientId, std::string_view organizationId);
  void codesAnswered(std::string_view clientId, std::string_view organizationId, std::uint64_t accepted,
                     std::uint64_t rejected);

  // Writes what is counted now (the writer thread does this on its own).
  // Returns false when the write failed (the counts are kept for the next).
  bool flush();
  // Stops the writer thread and writes once more. Idempotent; counting goes on
  // afterwards, but nothing writes it except flush().
  void stop();

  // Exactly `days` (1..kMaxDays, else std::invalid_argument) entries, oldest
  // first, ending today (UTC), zero-filled: stored counts plus those not yet
  // written. Of one client, and summed over the clients of one organization
  // (deleted clients included). Throws RegistryError(Storage).
  std::vector<DailyUsage> clientUsage(std::string_view clientId, int days);
  std::vector<DailyUsage> organizationUsage(std::string_view organizationId, int days);

  // The client's last use (minute resolution): the registry's lastUsedAt or a
  // later use not yet written.
  std::optional<std::int64_t> lastUsedAt(const ClientRecord& client) const;

  // Writes since start that succeeded (with something to write) and failed.
  struct FlushCounts {
    std::uint64_t writes = 0;
    std::uint64_t failures = 0;
  };
  FlushCounts flushCounts() const;

 private:
  void writeLoop();
  std::vector<DailyUsage> usage(
      int days,
      const std::function<std::map<std::int64_t, UsageCounts>(std::int64_t firstDay, std::int64_t lastDay)>& stored,
      const std::map<std::int64_t, UsageCounts>& pending);

  UsageCounter counter_;
  std::unique_ptr<UsageStore> store_;
  std::chrono::milliseconds flushInterval_;
  Log log_;
  UnixClock clock_;

  // Held by a write from take to commit and by a read from its query to its
  // look at the counter, so a read sees every count once: in the database or
  // in memory. The request path never takes it.
  mutable std::mutex flushMutex_;
  bool failing_ = false;  // the latest write failed (under flushMutex_)
  FlushCounts flushCounts_;

  std::mutex stopMutex_;
  std::condition_variable stopRequested_;
  bool stopping_ = false;
  std::thread writer_;
};

}  // namespace codepayload::auth
