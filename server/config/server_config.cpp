#include "server/config/server_config.h"

#include <algorithm>
#include <array>
#include <set>
#include <variant>

namespace codepayload::server {

namespace {

// Which field of ServerConfig each key fills; its type, range and default
// are the settings table's (app/settings_table.h).
using Field =
    std::variant<std::filesystem::path ServerConfig::*, ListenAddress ServerConfig::*,
                 std::optional<ListenAddress> ServerConfig::*, bool ServerConfig::*, std::int64_t ServerConfig::*,
                 int ServerConfig::*, std::size_t ServerConfig::*, std::chrono::seconds ServerConfig::*,
                 std::chrono::milliseconds ServerConfig::*, std::string ServerConfig::*, TrustedProxies ServerConfig::*,
                 ForwardedHeader ServerConfig::*>;

struct Binding {
  std::string_view key;
  Field field;
};

const std::array kBindings{
    Binding{"data.dir", &ServerConfig::dataDir},
    Binding{"registry.url", &ServerConfig::registryUrl},
    Binding{"registry.passwordFile", &ServerConfig::registryPasswordFile},
    Binding{"secrets.keyEncryptionKeyFile", &ServerConfig::keyEncryptionKeyFile},
    Binding{"listen", &ServerConfig::listen},
    Binding{"plain.listen", &ServerConfig::plainListen},
    Binding{"metrics.listen", &ServerConfig::metricsListen},
    Binding{"dashboard.enabled", &ServerConfig::dashboardEnabled},
    Binding{"dashboard.listen", &ServerConfig::dashboardListen},
    Binding{"tls.certificate", &ServerConfig::tlsCertificateFile},
    Binding{"tls.privateKey", &ServerConfig::tlsPrivateKeyFile},
    Binding{"token.ttl", &ServerConfig::tokenTtlSeconds},
    Binding{"token.leewaySeconds", &ServerConfig::tokenLeewaySeconds},
    Binding{"token.issuer", &ServerConfig::issuer},
    Binding{"token.audience", &ServerConfig::audience},
    Binding{"limits.maxBodyBytes", &ServerConfig::maxBodyBytes},
    Binding{"limits.maxItems", &ServerConfig::maxItems},
    Binding{"limits.largeBodyBytes", &ServerConfig::largeBodyBytes},
    Binding{"limits.maxLargeRequestsPerClient", &ServerConfig::maxLargeRequestsPerClient},
    Binding{"limits.maxLargeRequestsPerOrganization", &ServerConfig::maxLargeRequestsPerOrganization},
    Binding{"limits.maxLargeRequests", &ServerConfig::maxLargeRequests},
    Binding{"http.minThreads", &ServerConfig::minThreads},
    Binding{"http.maxThreads", &ServerConfig::maxThreads},
    Binding{"http.maxQueued", &ServerConfig::maxQueued},
    Binding{"http.maxConnections", &ServerConfig::maxConnections},
    Binding{"http.backlog", &ServerConfig::listenBacklog},
    Binding{"http.ioTimeout", &ServerConfig::ioTimeout},
    Binding{"http.minSendRate", &ServerConfig::minSendRate},
    Binding{"http.keepAliveTimeout", &ServerConfig::keepAliveTimeout},
    Binding{"http.maxKeepAliveRequests", &ServerConfig::maxKeepAliveRequests},
    Binding{"http.requestTimeout", &ServerConfig::requestTimeout},
    Binding{"http.firstBytesTimeout", &ServerConfig::firstBytesTimeout},
    Binding{"http.tlsHandshakeTimeout", &ServerConfig::tlsHandshakeTimeout},
    Binding{"http.trustedProxies", &ServerConfig::trustedProxies},
    Binding{"http.forwardedHeader", &ServerConfig::forwardedHeader},
    Binding{"http.maxConnectionsPerAddress", &ServerConfig::maxConnectionsPerAddress},
    Binding{"shutdown.grace", &ServerConfig::shutdownGrace},
    Binding{"rules.reloadIntervalMs", &ServerConfig::reloadInterval},
    Binding{"usage.flushInterval", &ServerConfig::usageFlushInterval},
    Binding{"log.access", &ServerConfig::accessLog},
};

// The typed readers, one per kind of field; the value is checked against its
// row first (app::checkSettingValue), so only the conversion is left.
struct Assign {
  ServerConfig& config;
  const app::SettingRow& row;
  std::string_view value;

  void operator()(std::filesystem::path ServerConfig::*field) const { config.*field = std::string(value); }
  void operator()(ListenAddress ServerConfig::*field) const { config.*field = app::parseListenAddress(value); }
  void operator()(std::optional<ListenAddress> ServerConfig::*field) const {
    config.*field = app::readListen(row, value);
  }
  void operator()(bool ServerConfig::*field) const { config.*field = app::readBoolean(value); }
  void operator()(std::int64_t ServerConfig::*field) const { config.*field = app::readInteger(row, value); }
  void operator()(int ServerConfig::*field) const { config.*field = static_cast<int>(app::readInteger(row, value)); }
  void operator()(std::size_t ServerConfig::*field) const {
    config.*field = static_cast<std::size_t>(app::readInteger(row, value));
  }
  void operator()(std::chrono::seconds ServerConfig::*field) const {
    config.*field = std::chrono::seconds(app::readInteger(row, value));
  }
  void operator()(std::chrono::milliseconds ServerConfig::*field) const {
    config.*field = std::chrono::milliseconds(app::readInteger(row, value));
  }
  void operator()(std::string ServerConfig::*field) const { config.*field = std::string(value); }
  void operator()(TrustedProxies ServerConfig::*field) const { config.*field = TrustedProxies::parse(value); }
  void operator()(ForwardedHeader ServerConfig::*field) const {
    config.*field = *forwardedHeaderNamed(app::readChoice(row, value));
  }
};

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

std::vector<std::string_view> serverConfigKeys() {
  std::vector<std::string_view> keys;
  for (const Binding& binding : kBindings) keys.push_back(binding.key);
  return keys;
}

ServerConfig serverConfigFrom(const app::Settings& settings) {
  ServerConfig config;
  config.rulesDir = settings.rulesDir;
  config.schemaDir = settings.schemaDir;
  std::set<std::string_view> applied;
  for (const Binding& binding : kBindings) {
    const app::SettingRow& row = *app::findSetting(binding.key);
    const auto given = settings.values.find(binding.key);
    if (given == settings.values.end()) {
      std::visit(Assign{config, row, row.defaultValue}, binding.field);
      continue;
    }
    applied.insert(binding.key);
    try {
      app::checkSettingValue(row, given->second.text);
      std::visit(Assign{config, row, given->second.text}, binding.field);
    } catch (const ServerConfigError& error) {
      throw ServerConfigError(given->second.source + ": " + error.what());
    }
  }
  checkConsistency(config, applied);
  // The password file is read here, so that a refused one stops the start as
  // every other setting does.
  config.postgresqlRegistry = app::readRegistryUrl(config.registryUrl, config.registryPasswordFile);
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
