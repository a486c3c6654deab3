#include "server/config/server_config.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <set>

#include "common/ascii.h"

namespace codepayload::server {

namespace {

std::string quoted(std::string_view value) { return "'" + std::string(value) + "'"; }

std::int64_t parseInteger(std::string_view value, std::int64_t minimum, std::int64_t maximum) {
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
    throw ServerConfigError("must be a whole number between " + std::to_string(minimum) + " and " +
                            std::to_string(maximum) + ", got " + quoted(value));
  }
  if (number < minimum || number > maximum) {
    throw ServerConfigError("must be between " + std::to_string(minimum) + " and " + std::to_string(maximum) +
                            ", got " + quoted(value));
  }
  return number;
}

int parseInt(std::string_view value, int minimum, int maximum) {
  return static_cast<int>(parseInteger(value, minimum, maximum));
}

void applyDataDir(ServerConfig& config, std::string_view value) { config.dataDir = app::parseDataDir(value); }

void applyListen(ServerConfig& config, std::string_view value) { config.listen = parseListenAddress(value); }

void applyDashboardEnabled(ServerConfig& config, std::string_view value) {
  if (value == "true") {
    config.dashboardEnabled = true;
  } else if (value == "false") {
    config.dashboardEnabled = false;
  } else {
    throw ServerConfigError("must be true or false, got " + quoted(value));
  }
}

void applyDashboardListen(ServerConfig& config, std::string_view value) {
  if (value.empty()) {
    config.dashboardListen.reset();
  } else {
    config.dashboardListen = parseListenAddress(value);
  }
}

void applyPlainListen(ServerConfig& config, std::string_view value) {
  if (value.empty() || value == "off") {
    config.plainListen.reset();
  } else {
    config.plainListen = parseListenAddress(value);
  }
}

void applyMetricsListen(ServerConfig& config, std::string_view value) {
  if (value.empty() || value == "off") {
    config.metricsListen.reset();
  } else {
    config.metricsListen = parseListenAddress(value);
  }
}

void applyTlsCertificate(ServerConfig& config, std::string_view value) {
  config.tlsCertificateFile = std::filesystem::path(std::string(value));
}

void applyTlsPrivateKey(ServerConfig& config, std::string_view value) {
  config.tlsPrivateKeyFile = std::filesystem::path(std::string(value));
}

void applyTokenTtl(ServerConfig& config, std::string_view value) {
  config.tokenTtlSeconds = parseInteger(value, 1, 86400);
}

void applyTokenLeeway(ServerConfig& config, std::string_view value) {
  config.tokenLeewaySeconds = parseInteger(value, 0, 300);
}

// An absolute URI (RFC 3986 scheme ":" ...) of visible ASCII, as `iss` and
// `aud` must be (RFC 7519 §4.1.1, §4.1.3: StringOrURI).
std::string parseUri(std::string_view value) {
  const auto colon = value.find(':');
  bool valid = colon != std::string_view::npos && colon > 0 && colon + 1 < value.size() && value.size() <= 256 &&
               ((value[0] >= 'a' && value[0] <= 'z') || (value[0] >= 'A' && value[0] <= 'Z'));
  for (const char c : value) {
    if (c <= ' ' || c > '~' || c == '"' || c == '\\') valid = false;
  }
  if (!valid)
    throw ServerConfigError("must be an absolute URI of at most 256 visible ASCII characters, got " + quoted(value));
  return std::string(value);
}

void applyIssuer(ServerConfig& config, std::string_view value) { config.issuer = parseUri(value); }

void applyAudience(ServerConfig& config, std::string_view value) { config.audience = parseUri(value); }

void applyMaxBodyBytes(ServerConfig& config, std::string_view value) {
  config.maxBodyBytes = static_cast<std::size_t>(parseInteger(value, 1024, std::int64_t{1} << 31));
}

void applyMaxItems(ServerConfig& config, std::string_view value) {
  config.maxItems = static_cast<std::size_t>(parseInteger(value, 1, 10000000));
}

void applyLargeBodyBytes(ServerConfig& config, std::string_view value) {
  config.largeBodyBytes = static_cast<std::size_t>(parseInteger(value, 1024, std::int64_t{1} << 31));
}

void applyMaxLargeRequestsPerClient(ServerConfig& config, std::string_view value) {
  config.maxLargeRequestsPerClient = parseInt(value, 0, 4096);
}

void applyMaxLargeRequestsPerOrganization(ServerConfig& config, std::string_view value) {
  config.maxLargeRequestsPerOrganization = parseInt(value, 0, 4096);
}

void applyMaxLargeRequests(ServerConfig& config, std::string_view value) {
  config.maxLargeRequests = parseInt(value, 0, 4096);
}

void applyMaxConnections(ServerConfig& config, std::string_view value) {
  config.maxConnections = parseInt(value, 1, 1048576);
}

void applyMinSendRate(ServerConfig& config, std::string_view value) {
  config.minSendRate = static_cast<std::size_t>(parseInteger(value, 0, std::int64_t{1} << 30));
}

void applyMinThreads(ServerConfig& config, std::string_view value) { config.minThreads = parseInt(value, 1, 4096); }

void applyMaxThreads(ServerConfig& config, std::string_view value) { config.maxThreads = parseInt(value, 1, 4096); }

void applyMaxQueued(ServerConfig& config, std::string_view value) { config.maxQueued = parseInt(value, 1, 65536); }

void applyBacklog(ServerConfig& config, std::string_view value) { config.listenBacklog = parseInt(value, 1, 65536); }

void applyIoTimeout(ServerConfig& config, std::string_view value) {
  config.ioTimeout = std::chrono::seconds(parseInteger(value, 1, 300));
}

void applyKeepAliveTimeout(ServerConfig& config, std::string_view value) {
  config.keepAliveTimeout = std::chrono::seconds(parseInteger(value, 1, 300));
}

void applyMaxKeepAliveRequests(ServerConfig& config, std::string_view value) {
  config.maxKeepAliveRequests = parseInt(value, 1, 1000000);
}

void applyRequestTimeout(ServerConfig& config, std::string_view value) {
  config.requestTimeout = std::chrono::seconds(parseInteger(value, 1, 3600));
}

void applyFirstBytesTimeout(ServerConfig& config, std::string_view value) {
  config.firstBytesTimeout = std::chrono::seconds(parseInteger(value, 0, 60));
}

void applyTlsHandshakeTimeout(ServerConfig& config, std::string_view value) {
  config.tlsHandshakeTimeout = std::chrono::seconds(parseInteger(value, 1, 300));
}

void applyMaxConnectionsPerAddress(ServerConfig& config, std::string_view value) {
  config.maxConnectionsPerAddress = parseInt(value, 0, 65536);
}

void applyShutdownGrace(ServerConfig& config, std::string_view value) {
  config.shutdownGrace = std::chrono::seconds(parseInteger(value, 0, 600));
}

void applyReloadInterval(ServerConfig& config, std::string_view value) {
  config.reloadInterval = std::chrono::milliseconds(parseInteger(value, 50, 60000));
}

void applyUsageFlushInterval(ServerConfig& config, std::string_view value) {
  config.usageFlushInterval = std::chrono::seconds(parseInteger(value, 1, 3600));
}

void applyTrustedProxies(ServerConfig& config, std::string_view value) {
  try {
    config.trustedProxies = TrustedProxies::parse(value);
  } catch (const std::invalid_argument& error) {
    throw ServerConfigError(std::string("must be a comma-separated list of CIDR blocks: ") + error.what());
  }
}

void applyForwardedHeader(ServerConfig& config, std::string_view value) {
  const std::optional<ForwardedHeader> header = forwardedHeaderNamed(value);
  if (!header) {
    throw ServerConfigError(
        "must be X-Forwarded-For or Forwarded (the one header the trusted proxies write the client's address into), "
        "got " +
        quoted(value));
  }
  config.forwardedHeader = *header;
}

void applyAccessLog(ServerConfig& config, std::string_view value) {
  if (value.empty()) throw ServerConfigError("must be '-' (stdout), 'off' or a file path, got ''");
  config.accessLog = std::string(value);
}

constexpr std::array kSettings{
    ServerSetting{"data.dir", "CODEPAYLOAD_DATA_DIR", applyDataDir},
    ServerSetting{"listen", "CODEPAYLOAD_LISTEN", applyListen},
    ServerSetting{"plain.listen", "CODEPAYLOAD_PLAIN_LISTEN", applyPlainListen},
    ServerSetting{"metrics.listen", "CODEPAYLOAD_METRICS_LISTEN", applyMetricsListen},
    ServerSetting{"dashboard.enabled", "CODEPAYLOAD_DASHBOARD_ENABLED", applyDashboardEnabled},
    ServerSetting{"dashboard.listen", "CODEPAYLOAD_DASHBOARD_LISTEN", applyDashboardListen},
    ServerSetting{"tls.certificate", "CODEPAYLOAD_TLS_CERT", applyTlsCertificate},
    ServerSetting{"tls.privateKey", "CODEPAYLOAD_TLS_KEY", applyTlsPrivateKey},
    ServerSetting{"token.ttl", "CODEPAYLOAD_TOKEN_TTL", applyTokenTtl},
    ServerSetting{"token.leewaySeconds", "CODEPAYLOAD_TOKEN_LEEWAY", applyTokenLeeway},
    ServerSetting{"token.issuer", "CODEPAYLOAD_ISSUER", applyIssuer},
    ServerSetting{"token.audience", "CODEPAYLOAD_AUDIENCE", applyAudience},
    ServerSetting{"limits.maxBodyBytes", "CODEPAYLOAD_MAX_BODY_BYTES", applyMaxBodyBytes},
    ServerSetting{"limits.maxItems", "CODEPAYLOAD_MAX_ITEMS", applyMaxItems},
    ServerSetting{"limits.largeBodyBytes", "CODEPAYLOAD_LARGE_BODY_BYTES", applyLargeBodyBytes},
    ServerSetting{"limits.maxLargeRequestsPerClient", "CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_CLIENT",
                  applyMaxLargeRequestsPerClient},
    ServerSetting{"limits.maxLargeRequestsPerOrganization", "CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_ORGANIZATION",
                  applyMaxLargeRequestsPerOrganization},
    ServerSetting{"limits.maxLargeRequests", "CODEPAYLOAD_MAX_LARGE_REQUESTS", applyMaxLargeRequests},
    ServerSetting{"http.minThreads", "CODEPAYLOAD_MIN_THREADS", applyMinThreads},
    ServerSetting{"http.maxThreads", "CODEPAYLOAD_THREADS", applyMaxThreads},
    ServerSetting{"http.maxQueued", "CODEPAYLOAD_MAX_QUEUED", applyMaxQueued},
    ServerSetting{"http.maxConnections", "CODEPAYLOAD_MAX_CONNECTIONS", applyMaxConnections},
    ServerSetting{"http.backlog", "CODEPAYLOAD_BACKLOG", applyBacklog},
    ServerSetting{"http.ioTimeout", "CODEPAYLOAD_IO_TIMEOUT", applyIoTimeout},
    ServerSetting{"http.keepAliveTimeout", "CODEPAYLOAD_KEEPALIVE_TIMEOUT", applyKeepAliveTimeout},
    ServerSetting{"http.maxKeepAliveRequests", "CODEPAYLOAD_MAX_KEEPALIVE_REQUESTS", applyMaxKeepAliveRequests},
    ServerSetting{"http.requestTimeout", "CODEPAYLOAD_REQUEST_TIMEOUT", applyRequestTimeout},
    ServerSetting{"http.minSendRate", "CODEPAYLOAD_MIN_SEND_RATE", applyMinSendRate},
    ServerSetting{"http.firstBytesTimeout", "CODEPAYLOAD_FIRST_BYTES_TIMEOUT", applyFirstBytesTimeout},
    ServerSetting{"http.tlsHandshakeTimeout", "CODEPAYLOAD_TLS_HANDSHAKE_TIMEOUT", applyTlsHandshakeTimeout},
    ServerSetting{"http.trustedProxies", "CODEPAYLOAD_TRUSTED_PROXIES", applyTrustedProxies},
    ServerSetting{"http.forwardedHeader", "CODEPAYLOAD_FORWARDED_HEADER", applyForwardedHeader},
    ServerSetting{"http.maxConnectionsPerAddress", "CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS",
                  applyMaxConnectionsPerAddress},
    ServerSetting{"shutdown.grace", "CODEPAYLOAD_SHUTDOWN_GRACE", applyShutdownGrace},
    ServerSetting{"rules.reloadIntervalMs", "CODEPAYLOAD_RELOAD_INTERVAL_MS", applyReloadInterval},
    ServerSetting{"usage.flushInterval", "CODEPAYLOAD_USAGE_FLUSH_INTERVAL", applyUsageFlushInterval},
    ServerSetting{"log.access", "CODEPAYLOAD_ACCESS_LOG", applyAccessLog},
};

void applySetting(ServerConfig& config, const ServerSetting& setting, std::string_view value, const std::string& source,
                  std::set<std::string_view>& applied) {
  applied.insert(setting.key);
  try {
    setting.apply(config, value);
  } catch (const ServerConfigError& error) {
    throw ServerConfigError(source + ": " + error.what());
  }
}

void checkConsistency(ServerConfig& config, const std::set<std::string_view>& applied) {
  // Only a minimum someone asked for can conflict; the default follows a lower maximum.
  if (!applied.contains("http.minThreads") && config.minThreads > config.maxThreads) {
    config.minThreads = config.maxThreads;
  }
  if (config.minThreads > config.maxThreads) {
    throw ServerConfigError("http.minThreads (" + std::to_string(config.minThreads) +
                            ") must not exceed http.maxThreads (" + std::to_string(config.maxThreads) + ")");
  }
  if (!applied.contains("http.maxConnectionsPerAddress")) {
    config.maxConnectionsPerAddress = std::max(1, config.maxThreads / 2);
  }
  if (config.requestTimeout <= config.keepAliveTimeout) {
    throw ServerConfigError("http.requestTimeout (" + std::to_string(config.requestTimeout.count()) +
                            ") must be longer than http.keepAliveTimeout (" +
                            std::to_string(config.keepAliveTimeout.count()) +
                            "): the request deadline includes the wait for the next request on a kept-alive "
                            "connection");
  }
  if (config.tlsCertificateFile.empty() != config.tlsPrivateKeyFile.empty()) {
    throw ServerConfigError(
        "tls.certificate (CODEPAYLOAD_TLS_CERT) and tls.privateKey (CODEPAYLOAD_TLS_KEY) must be set together, or "
        "both left empty for a generated development certificate");
  }
  if (config.plainListen && config.plainListen->port != 0 && *config.plainListen == config.listen) {
    throw ServerConfigError("plain.listen must differ from listen");
  }
  if (config.metricsListen && config.metricsListen->port != 0 &&
      (*config.metricsListen == config.listen || config.metricsListen == config.plainListen)) {
    throw ServerConfigError("metrics.listen must differ from listen and plain.listen");
  }
  if (config.dashboardListen && config.dashboardListen->port != 0 &&
      (*config.dashboardListen == config.listen || config.dashboardListen == config.plainListen ||
       config.dashboardListen == config.metricsListen)) {
    throw ServerConfigError("dashboard.listen must differ from listen, plain.listen and metrics.listen");
  }
}

}  // namespace

std::span<const ServerSetting> serverSettingTable() { return kSettings; }

ListenAddress parseListenAddress(std::string_view text) {
  const std::string shape = "must be host:port (or [ipv6]:port) with a port from 0 to 65535, got " + quoted(text);
  std::string_view host;
  std::string_view port;
  if (text.starts_with("[")) {
    const auto close = text.find("]:");
    if (close == std::string_view::npos) throw ServerConfigError(shape);
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || text.find(':') != colon) throw ServerConfigError(shape);
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (host.empty() || port.empty()) throw ServerConfigError(shape);
  std::uint32_t number = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (error != std::errc() || end != port.data() + port.size() || number > 65535) throw ServerConfigError(shape);
  return ListenAddress{std::string(host), static_cast<std::uint16_t>(number)};
}

ServerConfig serverConfigFrom(const app::Settings& settings) {
  ServerConfig config;
  config.rulesDir = settings.rulesDir;
  config.schemaDir = settings.schemaDir;
  std::set<std::string_view> applied;
  for (const auto& setting : kSettings) {
    const auto value = settings.values.find(setting.key);
    if (value != settings.values.end())
      applySetting(config, setting, value->second.text, value->second.source, applied);
  }
  checkConsistency(config, applied);
  return config;
}

ServerConfig loadServerConfig(const std::optional<std::filesystem::path>& propertiesFile,
                              const EnvironmentLookup& environment) {
  app::Settings settings;
  settings.propertiesFile = propertiesFile;
  settings.values = app::readSettingValues(propertiesFile, environment);
  settings.rulesDir = app::rulesDirFrom(environment);
  settings.schemaDir = app::schemaDirFrom(environment);
  return serverConfigFrom(settings);
}

}  // namespace codepayload::server
