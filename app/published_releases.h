// The dictionary release a shared registry gives all its instances: the rule
// database codepayload-import made from a GS1 release, published once
// (codepayload-import --publish) and served by every instance within seconds
// (server/release_follower.h). Only a PostgreSQL registry has one; the one
// instance of an SQLite registry reads the rule database in its data
// directory.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace codepayload::app {

struct PublishedRelease {
  std::int64_t id = 0;           // larger is newer
  std::string release;           // the GS1 release, "2026-01-27"
  std::string sha256;            // of the rule database, 64 lower-case hex digits
  std::int64_t publishedAt = 0;  // Unix seconds

  bool operator==(const PublishedRelease&) const = default;
};

// Storage: the database failed ("registry database, <what>: <why>").
// Downgrade: the release is older than the one in force.
struct PublishedReleaseError : std::runtime_error {
  enum class Kind { Storage, Downgrade };
  PublishedReleaseError(Kind errorKind, const std::string& message) : std::runtime_error(message), kind(errorKind) {}
  Kind kind;
};

// Thread-safe, on a connection of its own.
class PublishedReleases {
 public:
  virtual ~PublishedReleases() = default;

  // The release in force: the newest publication, nullopt before the first.
  virtual std::optional<PublishedRelease> latest() = 0;

  // The rule database of publication `id`, its file's bytes.
  virtual std::string rulesDatabase(std::int64_t id) = 0;

  // Publishes `rulesDatabase` (a rule database file's bytes) of GS1 release
  // `release`. A release older than the one in force is refused unless
  // `allowDowngrade`; the same file as the one in force is not published
  // again (the result is then the publication in force).
  virtual PublishedRelease publish(const std::string& release, const std::string& rulesDatabase,
                                   bool allowDowngrade) = 0;
};

}  // namespace codepayload::app
