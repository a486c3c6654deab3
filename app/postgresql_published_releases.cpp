#include "app/postgresql_published_releases.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/Session.h>

#include <mutex>
#include <string>
#include <vector>

#include "accounts/sha256_hex.h"
#include "app/postgresql_registry.h"
#include "auth/unix_clock.h"

namespace codepayload::app {
namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

class PostgresqlPublishedReleases final : public PublishedReleases {
 public:
  explicit PostgresqlPublishedReleases(const auth::RegistryDatabase& database)
      : session_(connectToRegistry(database)) {}

  std::optional<PublishedRelease> latest() override {
    return work("reading the published release", [this] { return newest(); });
  }

  std::string rulesDatabase(std::int64_t id) override {
    return work("reading the published rule database", [&] {
      std::vector<Poco::Data::BLOB> found;
      session_ << "SELECT rules_database FROM published_releases WHERE id = $1", bind(Poco::Int64{id}), into(found),
          now;
      if (found.empty()) {
        throw PublishedReleaseError(PublishedReleaseError::Kind::Storage,
                                    "registry database: no published release " + std::to_string(id));
      }
      const Poco::Data::BLOB& bytes = found.front();
      return std::string(bytes.rawContent(), bytes.rawContent() + bytes.size());
    });
  }

  PublishedRelease publish(const std::string& release, const std::string& rulesDatabase, bool allowDowngrade) override {
    return work("publishing release " + release, [&] {
      auth::WriteTransaction transaction(session_);
      const std::optional<PublishedRelease> inForce = newest();
      const std::string sha256 = accounts::sha256Hex(rulesDatabase);
      if (inForce && inForce->sha256 == sha256) return *inForce;
      // Release names are dates (2026-01-27): their text order is their age.
      if (inForce && release < inForce->release && !allowDowngrade) {
        throw PublishedReleaseError(PublishedReleaseError::Kind::Downgrade,
                                    "the registry serves GS1 release " + inForce->release + ", newer than release " +
                                        release + "; publishing it would replace newer rules by older ones " +
                                        "(--allow-downgrade publishes it anyway)");
      }
      PublishedRelease published{0, release, sha256, auth::systemUnixSeconds()};
      const Poco::Data::BLOB bytes(reinterpret_cast<const unsigned char*>(rulesDatabase.data()), rulesDatabase.size());
      session_ << "INSERT INTO published_releases (release, rules_database, sha256, published_at)"
                  " VALUES ($1, $2, $3, $4) RETURNING id",
          bind(release), bind(bytes), bind(sha256), bind(Poco::Int64{published.publishedAt}), into(published.id), now;
      transaction.commit();
      return published;
    });
  }

 private:
  std::optional<PublishedRelease> newest() {
    std::vector<Poco::Int64> ids;
    std::vector<std::string> releases;
    std::vector<std::string> digests;
    std::vector<Poco::Int64> publishedAt;
    session_ << "SELECT id, release, sha256, published_at FROM published_releases ORDER BY id DESC LIMIT 1", into(ids),
        into(releases), into(digests), into(publishedAt), now;
    if (ids.empty()) return std::nullopt;
    return PublishedRelease{ids.front(), releases.front(), digests.front(), publishedAt.front()};
  }

  template <typename Work>
  auto work(std::string_view what, Work&& unit) -> decltype(unit()) {
    return auth::guardedRegistryWork<PublishedReleaseError>(
        mutex_, session_, what, PublishedReleaseError::Kind::Storage, std::forward<Work>(unit));
  }

  std::mutex mutex_;
  Poco::Data::Session session_;
};

}  // namespace

std::unique_ptr<PublishedReleases> openPostgresqlPublishedReleases(const auth::RegistryDatabase& database) {
  return std::make_unique<PostgresqlPublishedReleases>(database);
}

}  // namespace codepayload::app
