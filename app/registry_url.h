// Where the registry lives, as the settings registry.url and
// registry.passwordFile write it. An empty registry.url keeps it in SQLite in
// the data directory; otherwise it is a PostgreSQL URL,
//
//   postgresql://user[:password]@host[:port]/dbname[?name=value&...]
//
// (or postgres://, as libpq accepts), turned here into libpq's keyword/value
// connection string so that no other code parses the URL. Every refusal is
// one RegistryUrlError line naming the setting, the problem and the fix, and
// never the password: of the URL it repeats at most the scheme and, as
// written, the parts after the '@' (host, port, parameter names and words).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "app/settings.h"

namespace codepayload::app {

// What registry.url's refusals are, caught with the other settings errors.
// what(): "registry.url: <reason>" or "registry.passwordFile: <reason>".
class RegistryUrlError : public SettingsError {
 public:
  RegistryUrlError(std::string_view key, const std::string& reason);

  // The line without the key, for the settings table's own prefix.
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

struct PostgresqlRegistry {
  // libpq's keyword/value form, every value single-quoted with '\' and '''
  // backslash-escaped: host='…' port='…' dbname='…' user='…' [password='…']
  // then the given parameters in the order of kRegistryUrlParameters. It
  // holds the password: never log it.
  std::string connectionString;
  // postgresql://user@host:port/dbname, the port always written, for
  // messages and logs.
  std::string displayName;

  bool operator==(const PostgresqlRegistry&) const = default;
};

// The query parameters registry.url accepts, in the connection string's order.
inline constexpr std::string_view kRegistryUrlParameters[] = {"sslmode", "sslrootcert",     "sslcert",
                                                              "sslkey",  "connect_timeout", "application_name"};

// The registry registry.url names: nullopt for an empty `url` (SQLite in the
// data directory). `passwordFile` (registry.passwordFile; empty: none) gives
// the password instead of the URL: the file's content without one trailing
// newline; it must be a non-empty regular file that neither group nor others
// may access. A password file without a URL is refused, and so is a password
// in both. The port defaults to 5432; host, user and database name are
// required; the parts are percent-decoded. Throws RegistryUrlError.
std::optional<PostgresqlRegistry> readRegistryUrl(std::string_view url, const std::filesystem::path& passwordFile);

}  // namespace codepayload::app
