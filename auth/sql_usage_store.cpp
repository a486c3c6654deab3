#include "auth/sql_usage_store.h"

#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>

#include <mutex>
#include <utility>

#include "auth/client_registry.h"
#include "auth/registry_database.h"
#include "db/poco_migrations.h"

namespace codepayload::auth {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// One upsert that adds (D-D12): two instances adding to the same day never
// overwrite each other's counts, whichever inserts the row. The same words in
// SQLite (3.24 and later) and PostgreSQL.
constexpr const char* kAddToDay =
    "INSERT INTO client_usage_daily (client_id, organization_id, day, tokens_issued, codes_accepted, codes_rejected)"
    " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (client_id, day) DO UPDATE SET"
    " tokens_issued = client_usage_daily.tokens_issued + excluded.tokens_issued,"
    " codes_accepted = client_usage_daily.codes_accepted + excluded.codes_accepted,"
    " codes_rejected = client_usage_daily.codes_rejected + excluded.codes_rejected";
constexpr const char* kMoveLastUse =
    "UPDATE api_clients SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)";

// Counts are at most 2^63 - 1 in the database's INTEGER.
Poco::Int64 column(std::uint64_t count) { return static_cast<Poco::Int64>(count); }

// The rows of a query over days firstDay..lastDay, by day number.
std::map<std::int64_t, UsageCounts> daysFromRows(const std::vector<std::string>& days,
                                                 const std::vector<Poco::Int64>& tokens,
                                                 const std::vector<Poco::Int64>& accepted,
                                                 const std::vector<Poco::Int64>& rejected, std::int64_t firstDay,
                                                 std::int64_t lastDay) {
  std::map<std::string, std::int64_t, std::less<>> numbers;
  for (std::int64_t day = firstDay; day <= lastDay; ++day) numbers.emplace(utcDayText(day), day);
  std::map<std::int64_t, UsageCounts> result;
  for (std::size_t row = 0; row < days.size(); ++row) {
    const auto number = numbers.find(days[row]);
    if (number == numbers.end()) {
      throw RegistryError(RegistryError::Kind::Storage,
                          "registry database holds a usage day that is not a date: \"" + days[row] + "\"");
    }
    result[number->second] +=
        UsageCounts{static_cast<std::uint64_t>(tokens[row]), static_cast<std::uint64_t>(accepted[row]),
                    static_cast<std::uint64_t>(rejected[row])};
  }
  return result;
}

}  // namespace

struct SqlUsageStore::Connection {
  explicit Connection(const RegistryDatabase& database) : session(openRegistrySession(database)) {}
  std::mutex mutex;
  Poco::Data::Session session;
};

namespace {

// Runs `work` under the connection's lock; database faults become RegistryError(Storage).
template <typename Locked, typename Work>
auto guarded(Locked& connection, std::string_view what, Work&& work) -> decltype(work()) {
  return guardedRegistryWork<RegistryError>(connection.mutex, connection.session, what, RegistryError::Kind::Storage,
                                            std::forward<Work>(work));
}

}  // namespace

SqlUsageStore::SqlUsageStore(const RegistryDatabase& database) {
  try {
    connection_ = std::make_unique<Connection>(database);
  } catch (const Poco::Exception& error) {
    throw RegistryError(RegistryError::Kind::Storage,
                        "cannot open the registry database " + database.name + ": " + databaseMessageOf(error));
  }
}

SqlUsageStore::~SqlUsageStore() = default;

void SqlUsageStore::add(const std::vector<ClientUsageDelta>& deltas) {
  if (deltas.empty()) return;
  guarded(*connection_, "adding usage", [&] {
    Poco::Data::Session& session = connection_->session;
    WriteTransaction transaction(session);
    for (const ClientUsageDelta& delta : deltas) {
      for (const auto& [dayNumber, counts] : delta.days) {
        const std::string day = utcDayText(dayNumber);
        session << kAddToDay, bind(delta.clientId), bind(delta.organizationId), bind(day),
            bind(column(counts.tokensIssued)), bind(column(counts.codesAccepted)), bind(column(counts.codesRejected)),
            now;
      }
      if (delta.lastUsedAt) {
        session << kMoveLastUse, bind(Poco::Int64{*delta.lastUsedAt}), bind(delta.clientId), now;
      }
    }
    transaction.commit();
  });
}

std::map<std::int64_t, UsageCounts> SqlUsageStore::clientDays(std::string_view clientId, std::int64_t firstDay,
                                                              std::int64_t lastDay) {
  return guarded(*connection_, "reading a client's usage", [&] {
    std::vector<std::string> days;
    std::vector<Poco::Int64> tokens, accepted, rejected;
    connection_->session << "SELECT day, tokens_issued, codes_accepted, codes_rejected FROM client_usage_daily"
                            " WHERE client_id = $1 AND day >= $2 AND day <= $3",
        bind(std::string(clientId)), bind(utcDayText(firstDay)), bind(utcDayText(lastDay)), into(days), into(tokens),
        into(accepted), into(rejected), now;
    return daysFromRows(days, tokens, accepted, rejected, firstDay, lastDay);
  });
}

std::map<std::int64_t, UsageCounts> SqlUsageStore::organizationDays(std::string_view organizationId,
                                                                    std::int64_t firstDay, std::int64_t lastDay) {
  return guarded(*connection_, "reading an organization's usage", [&] {
    std::vector<std::string> days;
    std::vector<Poco::Int64> tokens, accepted, rejected;
    connection_->session << "SELECT day, CAST(sum(tokens_issued) AS BIGINT), CAST(sum(codes_accepted) AS BIGINT),"
                            " CAST(sum(codes_rejected) AS BIGINT)"
                            " FROM client_usage_daily WHERE organization_id = $1 AND day >= $2 AND day <= $3"
                            " GROUP BY day",
        bind(std::string(organizationId)), bind(utcDayText(firstDay)), bind(utcDayText(lastDay)), into(days),
        into(tokens), into(accepted), into(rejected), now;
    return daysFromRows(days, tokens, accepted, rejected, firstDay, lastDay);
  });
}

}  // namespace codepayload::auth
