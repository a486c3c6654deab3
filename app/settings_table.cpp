#include "app/settings_table.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "app/address_blocks.h"
#include "app/registry_url.h"
#include "app/settings.h"
#include "common/ascii.h"

namespace codepayload::app {

namespace {

using enum SettingType;

constexpr std::int64_t k2GiB = std::int64_t{1} << 31;
constexpr std::array<std::string_view, 2> kForwardedHeaders{"X-Forwarded-For", "Forwarded"};

// Table layout: key, variable, type, default, doc, then minimum and maximum
// for the numbers, or the allowed words and why for a choice.
constexpr std::array kTable{
    SettingRow{"data.dir", "CODEPAYLOAD_DATA_DIR", Folder, "./data",
               "databases, keys, certificate, server.port, server.lock; one server per folder"},
    SettingRow{"registry.url", "CODEPAYLOAD_REGISTRY_URL", RegistryUrl, "",
               "the registry's database: empty for SQLite in the data directory, or "
               "postgresql://user:password@host:port/dbname"},
    SettingRow{"registry.passwordFile", "CODEPAYLOAD_REGISTRY_PASSWORD_FILE", File, "",
               "a file (mode 0600) holding the password of registry.url's user instead of the URL"},
    SettingRow{"secrets.keyEncryptionKeyFile", "CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE", File, "",
               "a file of at least 32 random bytes that encrypts the signing keys and the secret pepper in a "
               "PostgreSQL registry; required with registry.url"},
    SettingRow{"listen", "CODEPAYLOAD_LISTEN", Listen, "127.0.0.1:8443", "the HTTPS listener; port 0: any free port"},
    SettingRow{"plain.listen", "CODEPAYLOAD_PLAIN_LISTEN", ListenOrOff, "",
               "a plain HTTP listener, only behind a TLS-terminating proxy"},
    SettingRow{"metrics.listen", "CODEPAYLOAD_METRICS_LISTEN", ListenOrOff, "",
               "a plain HTTP listener serving only GET /metrics (Prometheus)"},
    SettingRow{"dashboard.enabled", "CODEPAYLOAD_DASHBOARD_ENABLED", Boolean, "true",
               "the dashboard under /dashboard/"},
    SettingRow{"dashboard.listen", "CODEPAYLOAD_DASHBOARD_LISTEN", ListenOrEmpty, "",
               "the dashboard's own HTTPS listener; empty: on the API listeners"},
    SettingRow{"tls.certificate", "CODEPAYLOAD_TLS_CERT", File, "",
               "PEM certificate chain; with tls.privateKey empty: a generated development certificate"},
    SettingRow{"tls.privateKey", "CODEPAYLOAD_TLS_KEY", File, "", "PEM private key of tls.certificate"},
    SettingRow{"token.ttl", "CODEPAYLOAD_TOKEN_TTL", Seconds, "3600", "access token lifetime", 1, 86400},
    SettingRow{"token.leewaySeconds", "CODEPAYLOAD_TOKEN_LEEWAY", Seconds, "30", "clock skew allowed on exp, nbf, iat",
               0, 300},
    SettingRow{"token.issuer", "CODEPAYLOAD_ISSUER", Uri, "urn:codepayload:token-service",
               "iss of issued tokens, checked exactly"},
    SettingRow{"token.audience", "CODEPAYLOAD_AUDIENCE", Uri, "urn:codepayload:api",
               "aud of issued tokens, checked exactly"},
    SettingRow{"limits.maxBodyBytes", "CODEPAYLOAD_MAX_BODY_BYTES", Integer, "33554432",
               "largest /codes body in bytes; larger: 413", 1024, k2GiB},
    SettingRow{"limits.maxItems", "CODEPAYLOAD_MAX_ITEMS", Integer, "100000",
               "most definitions in one request; more: 413", 1, 10000000},
    SettingRow{"limits.largeBodyBytes", "CODEPAYLOAD_LARGE_BODY_BYTES", Integer, "1048576",
               "a /codes body over this many bytes (or chunked) is a large request", 1024, k2GiB},
    SettingRow{"limits.maxLargeRequestsPerClient", "CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_CLIENT", Integer, "2",
               "large requests one client id may have in flight; 0: no limit", 0, 4096},
    SettingRow{"limits.maxLargeRequestsPerOrganization", "CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_ORGANIZATION", Integer,
               "3", "large requests one organization's clients may have in flight; 0: no limit", 0, 4096},
    SettingRow{"limits.maxLargeRequests", "CODEPAYLOAD_MAX_LARGE_REQUESTS", Integer, "4",
               "large requests the server has in flight; 0: no limit", 0, 4096},
    SettingRow{"http.minThreads", "CODEPAYLOAD_MIN_THREADS", Integer, "8", "worker threads started at once", 1, 4096},
    SettingRow{"http.maxThreads", "CODEPAYLOAD_THREADS", Integer, "64", "most worker threads", 1, 4096},
    SettingRow{"http.maxQueued", "CODEPAYLOAD_MAX_QUEUED", Integer, "256",
               "connections ready for a worker while all are busy", 1, 65536},
    SettingRow{"http.maxConnections", "CODEPAYLOAD_MAX_CONNECTIONS", Integer, "1024",
               "connections open at once, waiting ones included", 1, 1048576},
    SettingRow{"http.backlog", "CODEPAYLOAD_BACKLOG", Integer, "4096", "listen backlog", 1, 65536},
    SettingRow{"http.ioTimeout", "CODEPAYLOAD_IO_TIMEOUT", Seconds, "5",
               "how long a client may stay silent or make the server wait", 1, 300},
    SettingRow{"http.minSendRate", "CODEPAYLOAD_MIN_SEND_RATE", Integer, "16384",
               "bytes a second a client must read its answers at; 0: only http.ioTimeout", 0, std::int64_t{1} << 30},
    SettingRow{"http.keepAliveTimeout", "CODEPAYLOAD_KEEPALIVE_TIMEOUT", Seconds, "5",
               "how long an idle connection is kept", 1, 300},
    SettingRow{"http.maxKeepAliveRequests", "CODEPAYLOAD_MAX_KEEPALIVE_REQUESTS", Integer, "1000",
               "requests per connection", 1, 1000000},
    SettingRow{"http.requestTimeout", "CODEPAYLOAD_REQUEST_TIMEOUT", Seconds, "30",
               "time to send a whole request from when the connection is ready for it", 1, 3600},
    SettingRow{"http.firstBytesTimeout", "CODEPAYLOAD_FIRST_BYTES_TIMEOUT", Seconds, "3",
               "time a new connection has to send its first bytes; 0: off", 0, 60},
    SettingRow{"http.tlsHandshakeTimeout", "CODEPAYLOAD_TLS_HANDSHAKE_TIMEOUT", Seconds, "3",
               "time a TLS connection has to finish its handshake", 1, 300},
    SettingRow{"http.trustedProxies", "CODEPAYLOAD_TRUSTED_PROXIES", AddressBlocks, "",
               "CIDR blocks of the reverse proxies whose client address is believed"},
    SettingRow{"http.forwardedHeader", "CODEPAYLOAD_FORWARDED_HEADER", Choice, "X-Forwarded-For",
               "the one header those proxies write the client's address into", 0, 0, kForwardedHeaders,
               "the one header the trusted proxies write the client's address into"},
    SettingRow{"http.maxConnectionsPerAddress", "CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS", Integer, "32",
               "connections one address may hold; unset: half of http.maxThreads; 0: no limit", 0, 65536},
    SettingRow{"shutdown.grace", "CODEPAYLOAD_SHUTDOWN_GRACE", Seconds, "10", "time requests in flight get on SIGTERM",
               0, 600},
    SettingRow{"rules.reloadIntervalMs", "CODEPAYLOAD_RELOAD_INTERVAL_MS", Milliseconds, "250",
               "how often rules.db is checked for a new release", 50, 60000},
    SettingRow{"usage.flushInterval", "CODEPAYLOAD_USAGE_FLUSH_INTERVAL", Seconds, "10",
               "time between writes of the clients' usage to registry.db", 1, 3600},
    SettingRow{"log.access", "CODEPAYLOAD_ACCESS_LOG", LogTarget, "-", "access log: -, off or a file"},
};

std::string quoted(std::string_view value) { return "'" + std::string(value) + "'"; }

// An absolute URI (RFC 3986 scheme ":" ...) of visible ASCII, as `iss` and
// `aud` must be (RFC 7519 §4.1.1, §4.1.3: StringOrURI).
void checkUri(std::string_view value) {
  const auto colon = value.find(':');
  bool valid = colon != std::string_view::npos && colon > 0 && colon + 1 < value.size() && value.size() <= 256 &&
               ((value[0] >= 'a' && value[0] <= 'z') || (value[0] >= 'A' && value[0] <= 'Z'));
  for (const char c : value) {
    if (c <= ' ' || c > '~' || c == '"' || c == '\\') valid = false;
  }
  if (!valid)
    throw SettingsError("must be an absolute URI of at most 256 visible ASCII characters, got " + quoted(value));
}

// The parser's own words without its "registry.url: ", which the caller's
// prefix names.
void checkRegistryUrl(std::string_view value) {
  try {
    readRegistryUrl(value, {});
  } catch (const RegistryUrlError& error) {
    throw SettingsError(error.reason());
  }
}

void checkAddressBlocks(std::string_view value) {
  try {
    parseAddressBlocks(value);
  } catch (const std::invalid_argument& error) {
    throw SettingsError(std::string("must be a comma-separated list of CIDR blocks: ") + error.what());
  }
}

}  // namespace

std::span<const SettingRow> settingTable() { return kTable; }

const SettingRow* findSetting(std::string_view key) {
  const auto row = std::find_if(kTable.begin(), kTable.end(), [key](const SettingRow& r) { return r.key == key; });
  return row == kTable.end() ? nullptr : &*row;
}

void checkSettingValue(const SettingRow& row, std::string_view value) {
  switch (row.type) {
    case Folder:
      if (value.empty()) throw SettingsError("must not be empty");
      return;
    case File: return;
    case Listen:
    case ListenOrEmpty:
    case ListenOrOff: readListen(row, value); return;
    case Boolean: readBoolean(value); return;
    case Integer:
    case Seconds:
    case Milliseconds: readInteger(row, value); return;
    case Uri: checkUri(value); return;
    case AddressBlocks: checkAddressBlocks(value); return;
    case Choice: readChoice(row, value); return;
    case LogTarget:
      if (value.empty()) throw SettingsError("must be '-' (stdout), 'off' or a file path, got ''");
      return;
    case RegistryUrl: checkRegistryUrl(value); return;
  }
}

ListenAddress parseListenAddress(std::string_view text) {
  const std::string shape = "must be host:port (or [ipv6]:port) with a port from 0 to 65535, got " + quoted(text);
  std::string_view host;
  std::string_view port;
  if (text.starts_with("[")) {
    const auto close = text.find("]:");
    if (close == std::string_view::npos) throw SettingsError(shape);
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || text.find(':') != colon) throw SettingsError(shape);
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (host.empty() || port.empty()) throw SettingsError(shape);
  std::uint32_t number = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (error != std::errc() || end != port.data() + port.size() || number > 65535) throw SettingsError(shape);
  return ListenAddress{std::string(host), static_cast<std::uint16_t>(number)};
}

std::int64_t readInteger(const SettingRow& row, std::string_view value) {
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
    throw SettingsError("must be a whole number between " + std::to_string(row.minimum) + " and " +
                        std::to_string(row.maximum) + ", got " + quoted(value));
  }
  if (number < row.minimum || number > row.maximum) {
    throw SettingsError("must be between " + std::to_string(row.minimum) + " and " + std::to_string(row.maximum) +
                        ", got " + quoted(value));
  }
  return number;
}

bool readBoolean(std::string_view value) {
  if (value == "true") return true;
  if (value == "false") return false;
  throw SettingsError("must be true or false, got " + quoted(value));
}

std::optional<ListenAddress> readListen(const SettingRow& row, std::string_view value) {
  if (value.empty() && row.type != Listen) return std::nullopt;
  if (value == "off" && row.type == ListenOrOff) return std::nullopt;
  return parseListenAddress(value);
}

std::string_view readChoice(const SettingRow& row, std::string_view value) {
  std::string words;
  for (const std::string_view choice : row.choices) {
    if (common::equalsIgnoringAsciiCase(value, choice)) return choice;
    words += (words.empty() ? "" : " or ") + std::string(choice);
  }
  throw SettingsError("must be " + words + " (" + std::string(row.choiceNote) + "), got " + quoted(value));
}

}  // namespace codepayload::app
