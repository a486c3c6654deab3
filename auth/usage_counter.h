// Usage of the API clients counted on the request path, in memory (D-D11,
// D-D12): per client and UTC day the tokens issued and the codes
// accepted and rejected, and the minute of the client's last use. No database
// and no I/O here: a background writer (auth/usage_service.h) takes the counts
// out and adds them to the registry. Thread-safe; a count is one short lock of
// the counting thread's stripe (one of 16; a thread keeps its stripe), so the
// request threads of one busy client do not queue on one lock; readers sum a
// client's counts over the stripes. No lock is held across I/O.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/adaptive_mutex.h"
#include "common/string_hash.h"

namespace codepayload::auth {

struct UsageCounts {
  std::uint64_t tokensIssued = 0;
  std::uint64_t codesAccepted = 0;
  std::uint64_t codesRejected = 0;

  UsageCounts& operator+=(const UsageCounts& other);
  bool operator==(const UsageCounts&) const = default;
};

// Days since 1970-01-01 (UTC) of a Unix time (earlier times: negative days).
std::int64_t utcDayNumber(std::int64_t unixSeconds);
// "YYYY-MM-DD" of a day number.
std::string utcDayText(std::int64_t dayNumber);
// The Unix time truncated to its minute.
std::int64_t truncateToMinute(std::int64_t unixSeconds);

// Everything counted for one client since the last take.
struct ClientUsageDelta {
  std::string clientId;
  std::string organizationId;
  std::map<std::int64_t, UsageCounts> days;  // by day number
  std::optional<std::int64_t> lastUsedAt;    // the latest use, truncated to the minute

  bool operator==(const ClientUsageDelta&) const = default;
};

class UsageCounter {
 public:
  // A token was issued to the client at `unixSeconds`.
  void tokenIssued(std::string_view clientId, std::string_view organizationId, std::int64_t unixSeconds);
  // A /codes request of the client was answered at `unixSeconds` with
  // `accepted` codes and `rejected` failed items.
  void codesAnswered(std::string_view clientId, std::string_view organizationId, std::uint64_t accepted,
                     std::uint64_t rejected, std::int64_t unixSeconds);

  // Moves everything counted so far out (the counter is then empty): one delta
  // per client, in no particular order.
  std::vector<ClientUsageDelta> take();
  // Adds deltas back (a write that failed): counted since the take is kept,
  // the two are summed.
  void putBack(std::vector<ClientUsageDelta> deltas);

  // What is counted and not yet taken, per day number: of one client, and
  // summed over the clients of one organization.
  std::map<std::int64_t, UsageCounts> pendingOfClient(std::string_view clientId) const;
  std::map<std::int64_t, UsageCounts> pendingOfOrganization(std::string_view organizationId) const;
  // The client's latest use not yet taken.
  std::optional<std::int64_t> pendingLastUse(std::string_view clientId) const;

 private:
  struct Pending {
    std::string organizationId;
    std::map<std::int64_t, UsageCounts> days;
    std::optional<std::int64_t> lastUsedAt;
  };
  using PendingByClient = std::unordered_map<std::string, Pending, common::TransparentStringHash, std::equal_to<>>;
  struct alignas(64) Stripe {
    mutable common::AdaptiveMutex mutex;
    PendingByClient clients;
  };
  static constexpr std::size_t kStripes = 16;

  void add(std::string_view clientId, std::string_view organizationId, const UsageCounts& counts,
           std::int64_t unixSeconds);
  // The client's entry in `stripe` (whose lock the caller holds), made when missing.
  static Pending& pendingOf(Stripe& stripe, std::string_view clientId, std::string_view organizationId);
  Stripe& callingThreadsStripe() const;

  mutable std::array<Stripe, kStripes> stripes_;
};

}  // namespace codepayload::auth
