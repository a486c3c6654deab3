#include "app/postgresql_registry.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/Session.h>
#include <Poco/Exception.h>
#include <Poco/Nullable.h>
#include <openssl/rand.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/postgresql_published_releases.h"
#include "app/sealed_secrets.h"
#include "app/sql_registry.h"
#include "auth/key_encryption.h"
#include "auth/unix_clock.h"
#include "db/db_error.h"
#include "db/poco_migrations.h"

namespace codepayload::app {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// Tables of the current schema, when it has no schema_migrations: a database
// someone else uses, which the migrations must not write into.
constexpr const char* kForeignTables =
    "SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm')"
    " AND to_regclass('schema_migrations') IS NULL ORDER BY 1";

Poco::Data::BLOB blobOf(const std::string& bytes) {
  return Poco::Data::BLOB(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}
std::string bytesOf(const Poco::Data::BLOB& blob) {
  return std::string(blob.rawContent(), blob.rawContent() + blob.size());
}

class SharedRegistry final : public SqlRegistry {
 public:
  SharedRegistry(auth::RegistryDatabase database, const std::filesystem::path& migrationsDir,
                 auth::KeyEncryptionKey key, std::filesystem::path keyFile)
      : SqlRegistry(database, migrationsDir),
        key_(std::move(key)),
        keyFile_(std::move(keyFile)),
        session_(connectToRegistry(database)) {
    refuseAForeignDatabase();
    migrate(migrationsDir / "postgresql");
    checkTheKey();
  }

  bool exists() const override { return true; }

  const auth::SecretHasher& secretHasher() override {
    std::lock_guard lock(mutex_);
    if (!hasher_) {
      const WipedString pepper{secret(kPepperSecret, [] {
        std::string bytes(auth::SecretHasher::kPepperSize, '\0');
        if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size())) != 1) {
          throw auth::PepperError("the random generator failed while creating the secret pepper");
        }
        return bytes;
      })};
      if (pepper.text.size() != auth::SecretHasher::kPepperSize) {
        throw auth::PepperError("the registry's secret pepper holds " + std::to_string(pepper.text.size()) +
                                " bytes instead of " + std::to_string(auth::SecretHasher::kPepperSize));
      }
      hasher_.emplace(pepper.text);
    }
    return *hasher_;
  }

  bool signingKeysMayChange() const override { return true; }

  std::unique_ptr<PublishedReleases> openPublishedReleases() override {
    return openPostgresqlPublishedReleases(database());
  }

  auth::SigningKeySet signingKeys() override {
    std::lock_guard lock(mutex_);
    return guarded<auth::SigningKeyError>("reading the token signing keys", [&] {
      const std::int64_t at = auth::systemUnixSeconds();
      std::vector<StoredKey> keys = publishedKeys(at);
      if (std::none_of(keys.begin(), keys.end(), [](const StoredKey& key) { return key.signs; })) {
        createFirstKey(at);
        keys = publishedKeys(at);
      }
      std::optional<auth::SigningKey> active;
      std::vector<auth::SigningKey> published;
      for (const StoredKey& stored : keys) {
        auth::SigningKey key = opened(stored);
        if (stored.signs && !active) {
          active.emplace(std::move(key));
        } else {
          published.push_back(std::move(key));
        }
      }
      if (!active) throw auth::SigningKeyError("the registry " + name() + " holds no token signing key that signs");
      return auth::SigningKeySet(std::move(*active), std::move(published));
    });
  }

  KeyRotation rotateSigningKeys(auth::SigningAlgorithm algorithm, std::int64_t signsAfter,
                                std::int64_t retireAfter) override {
    std::lock_guard lock(mutex_);
    return guarded<RegistryConfigurationError>("rotating the token signing keys", [&] {
      const WipedString pem{auth::SigningKey::generatePem(algorithm)};
      const auth::SigningKey key = auth::SigningKey::fromPem(pem.text, "a generated token signing key");
      auth::WriteTransaction transaction(session_);
      KeyRotation rotation{key.kid(), key.algorithmName(), auth::systemUnixSeconds(), 0, {}};
      rotation.signsFrom = rotation.publishedAt + signsAfter;
      const std::int64_t retiredAt = rotation.signsFrom + retireAfter;
      std::vector<std::string> kids;
      std::vector<Poco::Nullable<Poco::Int64>> retired;
      session_ << "SELECT kid, retired_at FROM signing_keys WHERE retired_at IS NULL OR retired_at > $1"
                  " ORDER BY published_at, kid",
          bind(Poco::Int64{rotation.publishedAt}), into(kids), into(retired), now;
      for (std::size_t row = 0; row < kids.size(); ++row) {
        // A key retiring sooner already keeps that time.
        const std::int64_t at =
            retired[row].isNull() ? retiredAt : std::min<std::int64_t>(retired[row].value(), retiredAt);
        session_ << "UPDATE signing_keys SET retired_at = $1 WHERE kid = $2", bind(Poco::Int64{at}), bind(kids[row]),
            now;
        rotation.retiring.emplace_back(kids[row], at);
      }
      session_ << "INSERT INTO signing_keys (kid, algorithm, sealed_private_key, published_at, signs_from)"
                  " VALUES ($1, $2, $3, $4, $5)",
          bind(key.kid()), bind(key.algorithmName()), bind(blobOf(key_.seal(pem.text, signingKeyContext(key.kid())))),
          bind(Poco::Int64{rotation.publishedAt}), bind(Poco::Int64{rotation.signsFrom}), now;
      transaction.commit();
      return rotation;
    });
  }

 private:
  struct StoredKey {
    std::string kid;
    std::string sealed;
    bool signs = false;
  };

  // Runs `work`; a database fault becomes Error("registry <name>, <what>: <message>").
  template <typename Error, typename Work>
  auto guarded(std::string_view what, Work&& work) -> decltype(work()) {
    try {
      return work();
    } catch (const Poco::Exception& error) {
      throw Error("registry " + name() + ", " + std::string(what) + ": " + databaseMessageOf(error));
    } catch (const DbError& error) {
      throw Error("registry " + name() + ", " + std::string(what) + ": " + error.what());
    }
  }

  void refuseAForeignDatabase() {
    std::vector<std::string> tables = guarded<RegistryConfigurationError>("reading its tables", [&] {
      std::vector<std::string> found;
      session_ << kForeignTables, into(found), now;
      return found;
    });
    if (tables.empty()) return;
    std::string listed;
    for (std::size_t index = 0; index < tables.size() && index < 5; ++index) {
      listed += (index == 0 ? "" : ", ") + tables[index];
    }
    if (tables.size() > 5) listed += ", ...";
    throw RegistryConfigurationError("registry.url: the database " + name() +
                                     " holds tables that are not a codepayload registry (" + listed +
                                     "); name an empty database, or one this service created");
  }

  void migrate(const std::filesystem::path& folder) {
    try {
      applyMigrations(session_, folder);
    } catch (const Poco::Exception& error) {
      throw RegistryConfigurationError("registry.url: cannot migrate " + name() + ": " + databaseMessageOf(error));
    } catch (const DbError& error) {
      throw RegistryConfigurationError("registry.url: cannot migrate " + name() + ": " + error.what());
    }
  }

  // Seals the key check of a new registry; refuses a key file that is not the
  // one the registry's secrets were sealed with.
  void checkTheKey() {
    const std::string check = guarded<RegistryConfigurationError>(
        "reading its key check", [&] { return sealedSecret(kKeyCheckSecret, [this] { return key_.sealCheck(); }); });
    bool matches = false;
    try {
      matches = key_.matchesCheck(check);
    } catch (const auth::SealedValueError& error) {
      throw RegistryConfigurationError("registry.url: the key check of " + name() + " is damaged: " + error.what());
    }
    if (!matches) {
      throw RegistryConfigurationError("secrets.keyEncryptionKeyFile: " + keyFile_.string() +
                                       " is not the key-encryption key the secrets of " + name() +
                                       " are sealed with; give every instance the same key file");
    }
  }

  // The plaintext of installation secret `name`, made by `create` and sealed
  // when the registry has none yet (one instance creates it; the others read
  // what it stored). The caller wipes the result.
  template <typename Create>
  std::string secret(std::string_view secretName, Create&& create) {
    return guarded<auth::PepperError>("reading its " + std::string(secretName), [&] {
      const std::string sealed = sealedSecret(secretName, [&] {
        WipedString plaintext{create()};
        return key_.seal(plaintext.text, installationSecretContext(secretName));
      });
      return openSealed(sealed, installationSecretContext(secretName), "the registry's " + std::string(secretName));
    });
  }

  // The sealed row of `secretName`, inserted as `seal()` makes it when absent.
  template <typename Seal>
  std::string sealedSecret(std::string_view secretName, Seal&& seal) {
    std::vector<Poco::Data::BLOB> found;
    session_ << "SELECT sealed FROM installation_secrets WHERE name = $1", bind(std::string(secretName)), into(found),
        now;
    if (!found.empty()) return bytesOf(found.front());
    auth::WriteTransaction transaction(session_);
    session_ << "SELECT sealed FROM installation_secrets WHERE name = $1", bind(std::string(secretName)), into(found),
        now;
    if (!found.empty()) return bytesOf(found.front());
    const std::string sealed = seal();
    session_ << "INSERT INTO installation_secrets (name, sealed, created_at) VALUES ($1, $2, $3)",
        bind(std::string(secretName)), bind(blobOf(sealed)), bind(Poco::Int64{auth::systemUnixSeconds()}), now;
    transaction.commit();
    return sealed;
  }

  std::string openSealed(const std::string& sealed, const std::string& context, const std::string& what) const {
    try {
      return key_.open(sealed, context, what);
    } catch (const auth::SealedValueError& error) {
      throw RegistryConfigurationError(error.what());
    }
  }

  // The key of a row, opened once: its kid names one key for good.
  auth::SigningKey opened(const StoredKey& stored) {
    const auto found = openedKeys_.find(stored.kid);
    if (found != openedKeys_.end()) return found->second;
    const WipedString pem{openSealed(stored.sealed, signingKeyContext(stored.kid), "token signing key " + stored.kid)};
    auth::SigningKey key = auth::SigningKey::fromPem(pem.text, "token signing key " + stored.kid + " of " + name());
    openedKeys_.emplace(stored.kid, key);
    return key;
  }

  // The keys published at `at`, the ones that sign first, latest first.
  std::vector<StoredKey> publishedKeys(std::int64_t at) {
    std::vector<std::string> kids;
    std::vector<Poco::Data::BLOB> sealed;
    std::vector<Poco::Int64> signs;
    session_ << "SELECT kid, sealed_private_key, CAST(CASE WHEN signs_from IS NOT NULL AND signs_from <= $1"
                " THEN 1 ELSE 0 END AS BIGINT) FROM signing_keys"
                " WHERE published_at <= $1 AND (retired_at IS NULL OR retired_at > $1)"
                " ORDER BY 3 DESC, signs_from DESC NULLS LAST, published_at DESC, kid",
        bind(Poco::Int64{at}), into(kids), into(sealed), into(signs), now;
    std::vector<StoredKey> keys;
    for (std::size_t row = 0; row < kids.size(); ++row)
      keys.push_back({kids[row], bytesOf(sealed[row]), signs[row] == 1});
    return keys;
  }

  // A new registry's first key, EC P-256, unless another instance stored one meanwhile.
  void createFirstKey(std::int64_t at) {
    auth::WriteTransaction transaction(session_);
    Poco::Int64 signing = 0;
    session_ << "SELECT count(*) FROM signing_keys WHERE signs_from IS NOT NULL", into(signing), now;
    if (signing > 0) return;
    const WipedString pem{auth::SigningKey::generatePem(auth::SigningAlgorithm::ES256)};
    const auth::SigningKey key = auth::SigningKey::fromPem(pem.text, "a generated token signing key");
    session_ << "INSERT INTO signing_keys (kid, algorithm, sealed_private_key, published_at, signs_from)"
                " VALUES ($1, $2, $3, $4, $4)",
        bind(key.kid()), bind(key.algorithmName()), bind(blobOf(key_.seal(pem.text, signingKeyContext(key.kid())))),
        bind(Poco::Int64{at}), now;
    transaction.commit();
  }

  auth::KeyEncryptionKey key_;
  std::filesystem::path keyFile_;
  std::mutex mutex_;
  Poco::Data::Session session_;
  std::optional<auth::SecretHasher> hasher_;
  std::map<std::string, auth::SigningKey> openedKeys_;
};

}  // namespace

Poco::Data::Session connectToRegistry(const auth::RegistryDatabase& database) {
  try {
    return auth::openRegistrySession(database);
  } catch (const Poco::Exception& error) {
    throw RegistryConfigurationError("registry.url: cannot connect to " + database.name + ": " +
                                     databaseMessageOf(error));
  }
}

auth::KeyEncryptionKey loadKeyEncryptionKey(const std::filesystem::path& file) {
  if (file.empty()) {
    throw RegistryConfigurationError(
        "secrets.keyEncryptionKeyFile: required with registry.url: the same file of at least 32 random bytes on"
        " every instance, e.g. (umask 077; head -c 32 /dev/urandom > /etc/codepayload/key-encryption-key)");
  }
  try {
    return auth::KeyEncryptionKey::load(file);
  } catch (const auth::KeyEncryptionKeyError& error) {
    throw RegistryConfigurationError(std::string("secrets.keyEncryptionKeyFile: ") + error.what());
  }
}

std::unique_ptr<Registry> openPostgresqlRegistry(const RegistryLocation& location) {
  auth::KeyEncryptionKey key = loadKeyEncryptionKey(location.keyEncryptionKeyFile);
  return std::make_unique<SharedRegistry>(
      auth::RegistryDatabase::postgresql(location.postgresql->connectionString, location.postgresql->displayName),
      location.migrationsDir, std::move(key), location.keyEncryptionKeyFile);
}

}  // namespace codepayload::app
