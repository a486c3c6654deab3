// The server's settings, validated once at startup into an immutable object.
// The properties file and its environment overrides are read by the settings
// module every binary shares (app/settings.h) and checked against the one
// settings table (app/settings_table.h): its type, range and default of each
// key. This file only says which field of ServerConfig each key fills, and
// checks the settings against each other. A bad value stops startup with a
// ServerConfigError that names the key, the variable and why.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/paths.h"
#include "app/registry_url.h"
#include "app/settings.h"
#include "app/settings_table.h"
#include "server/http/trusted_proxies.h"

namespace codepayload::server {

using ServerConfigError = app::SettingsError;

using ListenAddress = app::ListenAddress;
using app::parseListenAddress;

struct ServerConfig {
  // SQLite databases (rules.db, registry.db), generated TLS certificate,
  // token signing key, secret pepper, and server.port.
  std::filesystem::path dataDir{std::string(app::kDefaultDataDir)};
  // registry.url and registry.passwordFile as given (empty: SQLite in
  // dataDir); the PostgreSQL registry they name, read together by
  // app::readRegistryUrl when the configuration is read (nullopt: SQLite);
  // and the file of the key that seals the secrets in a PostgreSQL registry
  // (empty: none).
  std::string registryUrl;
  std::filesystem::path registryPasswordFile;
  std::optional<app::PostgresqlRegistry> postgresqlRegistry;
  std::filesystem::path keyEncryptionKeyFile;
  // rules/ (baseline, Lua, pipeline) and db/ (migrations): CODEPAYLOAD_RULES_DIR
  // and CODEPAYLOAD_DB_DIR, by default the source tree's.
  std::filesystem::path rulesDir = app::defaultRulesDir();
  std::filesystem::path schemaDir = app::defaultSchemaDir();
  ListenAddress listen{"127.0.0.1", 8443};
  // Plain-HTTP listener for deployments behind a TLS-terminating proxy; off
  // when empty.
  std::optional<ListenAddress> plainListen;
  // Plain-HTTP listener serving only GET /metrics (Prometheus text); off when
  // empty.
  std::optional<ListenAddress> metricsListen;
  // The dashboard (/dashboard/): on or off, and on the HTTPS
  // listener (nullopt) or on its own HTTPS listener (then only there).
  bool dashboardEnabled = true;
  std::optional<ListenAddress> dashboardListen;
  // Both empty: a self-signed development certificate is generated in dataDir.
  std::filesystem::path tlsCertificateFile;
  std::filesystem::path tlsPrivateKeyFile;

  std::int64_t tokenTtlSeconds = 3600;
  // Clock skew allowed when checking a token's exp, nbf and iat.
  std::int64_t tokenLeewaySeconds = 30;
  // `iss` and `aud` of issued tokens, both compared exactly on /codes.
  std::string issuer = "urn:codepayload:token-service";
  std::string audience = "urn:codepayload:api";

  std::size_t maxBodyBytes = 32u * 1024u * 1024u;
  std::size_t maxItems = 100000;
  // A /codes request whose body is larger than this (or chunked: its size is
  // not known before it is read, or whose answer grows past 1 MiB) is large:
  // one client id may have at most maxLargeRequestsPerClient of them in
  // flight, its organization maxLargeRequestsPerOrganization (more get 429),
  // the server maxLargeRequests (more get 503); 0: no limit.
  std::size_t largeBodyBytes = 1024u * 1024u;
  int maxLargeRequestsPerClient = 2;
  int maxLargeRequestsPerOrganization = 3;
  int maxLargeRequests = 4;

  int minThreads = 8;
  int maxThreads = 64;
  int maxQueued = 256;
  // Connections open at once, waiting ones included; more are refused at accept.
  int maxConnections = 1024;
  // Also bounds the connections the kernel holds back while they are silent
  // (firstBytesTimeout): beyond it, it hands them over at once (SYN cookies).
  int listenBacklog = 4096;
  std::chrono::seconds ioTimeout{5};
  std::chrono::seconds keepAliveTimeout{5};
  int maxKeepAliveRequests = 1000;
  // A request's head and body must have arrived within this time of the
  // connection being ready for it (opened, or the previous response sent);
  // longer than keepAliveTimeout.
  std::chrono::seconds requestTimeout{30};
  // Bytes a second a client must read its answers at, on average (it may
  // pause for ioTimeout at most); a slower one is closed. 0: only ioTimeout
  // without progress.
  std::size_t minSendRate = 16 * 1024;
  // A new connection must send its first bytes within this time: the kernel
  // holds it back until then (TCP_DEFER_ACCEPT), and one still silent at
  // accept is closed without taking a worker. 0: off.
  std::chrono::seconds firstBytesTimeout{3};
  // A TLS connection must finish its handshake within this time of being
  // taken by a worker; its request deadline starts after the handshake.
  std::chrono::seconds tlsHandshakeTimeout{3};
  // Connections one client address (an IPv6 /64) may hold at once, waiting
  // ones included; 0: no limit. Unless set, half of maxThreads.
  int maxConnectionsPerAddress = 32;
  // Reverse proxies whose client address and X-Request-Id are believed
  // (server/http/trusted_proxies.h); empty: none.
  TrustedProxies trustedProxies;
  // The one header those proxies write the client's address into; the other
  // one is ignored, whoever sent it.
  ForwardedHeader forwardedHeader = ForwardedHeader::XForwardedFor;
  std::chrono::seconds shutdownGrace{10};
  std::chrono::milliseconds reloadInterval{250};
  // How often the API clients' usage counted in memory is added to the
  // registry (auth/usage_service.h); also once more at stop.
  std::chrono::seconds usageFlushInterval{10};

  // "-" writes the access log to stdout, "off" disables it, anything else is
  // a file path (appended to).
  std::string accessLog = "-";

  bool operator==(const ServerConfig&) const = default;
};

// The keys the server fills ServerConfig from, in the settings table's
// order: every key of the table, once.
std::vector<std::string_view> serverConfigKeys();

using EnvironmentLookup = app::EnvironmentLookup;
using app::processEnvironment;

// The server's settings from the shared ones (values, folders), checked
// against each other. Throws ServerConfigError.
ServerConfig serverConfigFrom(const app::Settings& settings);

// Reads `propertiesFile` (which must exist when given; an unknown key is an
// error), then applies the environment overrides, then checks the settings
// against each other. Throws ServerConfigError.
ServerConfig loadServerConfig(const std::optional<std::filesystem::path>& propertiesFile,
                              const EnvironmentLookup& environment);

}  // namespace codepayload::server
