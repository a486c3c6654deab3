#include "server/service.h"

#include <Poco/Logger.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <thread>

#include "app/logging.h"
#include "app/registry.h"
#include "app/version.h"
#include "auth/auth_service.h"
#include "common/atomic_file.h"
#include "db/file_modes.h"
#include "db/import/rule_import.h"
#include "engine/payload_engine.h"
#include "plugins/builtin_plugins.h"
#include "server/connections/http_transport.h"
#include "server/dashboard/dashboard_accounts.h"
#include "server/dashboard/session_sweeper.h"
#include "server/data_dir_lock.h"
#include "server/observability/metrics_endpoint.h"
#include "server/observability/metrics_exposition.h"
#include "server/release_follower.h"
#include "server/request_router.h"
#include "server/rules_watcher.h"
#include "server/server_transport.h"
#include "server/tls/development_certificate.h"
#include "server/tls/tls_certificate_store.h"

namespace codepayload::server {

namespace {

std::string urlHost(const std::string& host) { return host.find(':') != std::string::npos ? "[" + host + "]" : host; }

// Binds with SO_REUSEADDR (a restart reuses a port in TIME_WAIT) but without
// SO_REUSEPORT (Poco 1.11's ServerSocket(address, backlog) sets both), so a
// second server on a port already in use fails here instead of sharing it.
void bindExclusively(Poco::Net::ServerSocket& socket, const ListenAddress& listen, int backlog) {
  const std::string where = urlHost(listen.host) + ":" + std::to_string(listen.port);
  try {
    socket.bind(Poco::Net::SocketAddress(listen.host, listen.port), true, false);
    socket.listen(backlog);
  } catch (const Poco::Exception& error) {
    if (error.code() == POCO_EADDRINUSE) {
      throw std::runtime_error("cannot listen on " + where + ": the address is already in use");
    }
    throw std::runtime_error("cannot listen on " + where + ": " + error.displayText());
  }
}

// The metrics listener: a scrape is one small request every few seconds.
constexpr int kMetricsThreads = 2;
constexpr int kMetricsQueued = 4;
constexpr int kMetricsConnections = 16;
constexpr int kMetricsBacklog = 16;

// How often ended dashboard sessions are removed.
constexpr std::chrono::minutes kSessionSweepInterval{5};

// How often an instance of a shared registry asks which release is published:
// one small query, and a new release served within this plus the rules
// watcher's interval and two snapshot builds.
constexpr std::chrono::seconds kPublishedReleaseInterval{1};

// Poco's SSL library, initialized while the service runs.
struct SslLibrary {
  SslLibrary() { Poco::Net::initializeSSL(); }
  ~SslLibrary() { Poco::Net::uninitializeSSL(); }
  SslLibrary(const SslLibrary&) = delete;
  SslLibrary& operator=(const SslLibrary&) = delete;
};

// What the rules' hot reload needs from their loading.
struct LoadedRules {
  std::filesystem::path database;
  std::optional<FileIdentity> identity;
};

}  // namespace

// The parts of a started service, each made by one step of start(). Members
// are declared in the order the steps make them, so they are destroyed in
// reverse: whatever uses a part (a listener's workers use the context, the
// context uses the engine, the TLS context uses the certificate store) is
// gone before it, and the data directory lock is released last.
struct CodePayloadService::Running {
  Running(const ServerConfig& serviceConfig, const ServiceLogger& serviceLog)
      : config(serviceConfig), log(serviceLog) {}

  const ServerConfig& config;
  const ServiceLogger& log;
  std::unique_ptr<DataDirectoryLock> dataDirLock;
  SslLibrary ssl;
  std::filesystem::path certificateFile;
  std::unique_ptr<TlsCertificateStore> certificates;
  Poco::Net::Context::Ptr tls;
  // Before every part opened from it.
  std::unique_ptr<app::Registry> registry;
  // The release a shared registry publishes, installed as the rules database.
  std::unique_ptr<ReleaseFollower> releaseFollower;
  std::unique_ptr<SnapshotHolder> rules;
  std::unique_ptr<auth::AuthService> auth;
  std::unique_ptr<PayloadEngine> engine;
  std::unique_ptr<LargeRequestSlots> largeRequests;
  // Stopped (its last write) once the handlers are done counting.
  std::unique_ptr<auth::UsageService> usage;
  std::unique_ptr<DashboardAccounts> dashboard;
  std::unique_ptr<AccessLog> accessLog;
  std::unique_ptr<ServiceMetrics> metrics;
  std::unique_ptr<ServiceContext> context;
  HttpSettings http;
  std::unique_ptr<RequestRouter> router;
  // The dashboard's own listener (dashboard.listen), when there is one.
  std::unique_ptr<RequestRouter> dashboardRouter;
  // Every listener but the metrics one.
  std::unique_ptr<HttpTransport> transport;
  std::unique_ptr<SessionSweeper> sessionSweeper;
  std::unique_ptr<RulesWatcher> watcher;
  // The metrics listener: its own transport (workers, address slots), so a
  // scrape neither waits for nor takes an API worker or address slot. A
  // scrape reads everything above, so it goes first.
  std::unique_ptr<MetricsEndpoint> metricsEndpoint;
  std::unique_ptr<HttpTransport> metricsTransport;
  std::uint16_t httpsPort = 0;
  std::optional<std::uint16_t> plainPort;
  std::optional<std::uint16_t> dashboardPort;
  std::optional<std::uint16_t> metricsPort;

  // The steps of start(), in order.
  void openDataDirectory();
  void openRegistry();
  void installPublishedRelease();
  LoadedRules loadRules();
  void startAuth();
  void loadCertificate();
  void makeContext();
  void bindListeners();
  void startBackgroundWork(const LoadedRules& loaded);
  void startMetrics();
  std::string listeningLine() const;

  void stopMetrics() {
    metricsTransport.reset();
    metricsEndpoint.reset();
  }

  // The Prometheus text of this service (server/observability/metrics_exposition.h).
  void renderMetrics(std::string& out) const {
    const app::BuildVersion build = app::buildVersion();
    const auto snapshot = rules->current();
    const RulesWatcher::Counts reloads = watcher->counts();
    const auth::AuthService::RegistryRefresh refresh = auth->registryRefresh();
    ScrapeValues values;
    values.version = build.project;
    values.commit = build.gitCommit;
    values.dictionaryRelease = build.dictionaryRelease;
    values.rulesRelease = snapshot->release().name;
    values.rulesReloads = reloads.reloads;
    values.rulesReloadFailures = reloads.failedReloads;
    values.registryRefreshAgeSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - refresh.lastSuccess).count();
    values.registryRefreshFailures = refresh.failures;
    const auth::UsageService::FlushCounts usageWrites = usage->flushCounts();
    values.usageWrites = usageWrites.writes;
    values.usageWriteFailures = usageWrites.failures;
    values.connections = transport->counts();
    values.openConnections = static_cast<std::int64_t>(transport->openConnections());
    writePrometheusText(values, *metrics, engineMetrics(), out);
  }
};

void CodePayloadService::Running::openDataDirectory() {
  const std::filesystem::path& dataDir = config.dataDir;
  if (!std::filesystem::exists(dataDir)) {
    std::filesystem::create_directories(dataDir);
    std::filesystem::permissions(dataDir, std::filesystem::perms::owner_all);
  }
  dataDirLock = std::make_unique<DataDirectoryLock>(dataDir);
  if (const std::optional<std::string> warning = filemodes::sharedDirectoryWarning(dataDir)) {
    log({app::LogLevel::Warning, *warning});
  }
}

// The rules database of the data directory, made from the shipped baseline
// on the first start, loaded into the snapshot the engine reads.
LoadedRules CodePayloadService::Running::loadRules() {
  LoadedRules loaded{config.dataDir / kRulesDatabaseFile, std::nullopt};
  if (!std::filesystem::exists(loaded.database)) {
    const std::filesystem::path baseline = importer::baselinePath(config.rulesDir);
    importer::importBaseline(baseline, loaded.database, builtinLinterCatalog(config.rulesDir), config.schemaDir);
    log("created the rules database " + loaded.database.string() + " from the shipped baseline " + baseline.string());
  }
  // Older installs wrote it readable by all.
  filemodes::restrictDatabaseToOwner(loaded.database);
  loaded.identity = identifyFile(loaded.database);
  rules = std::make_unique<SnapshotHolder>(loadRulesSnapshot(loaded.database, config.rulesDir));
  engine = std::make_unique<PayloadEngine>(*rules, EngineLimits{config.maxItems});
  return loaded;
}

void CodePayloadService::Running::openRegistry() {
  registry = app::openRegistry({config.dataDir, auth::registryMigrationsDir(config.schemaDir),
                                config.postgresqlRegistry, config.keyEncryptionKeyFile});
}

// The release a shared registry publishes, in the rules database before the
// rules load: an instance starts on the release the others serve.
void CodePayloadService::Running::installPublishedRelease() {
  std::unique_ptr<app::PublishedReleases> published = registry->openPublishedReleases();
  if (!published) return;
  releaseFollower = std::make_unique<ReleaseFollower>(std::move(published), config.dataDir / kRulesDatabaseFile,
                                                      config.rulesDir, log);
  releaseFollower->checkNow();
}

void CodePayloadService::Running::startAuth() {
  auth::AuthSettings authSettings;
  authSettings.token.issuer = config.issuer;
  authSettings.token.audience = config.audience;
  authSettings.token.lifetimeSeconds = config.tokenTtlSeconds;
  authSettings.token.leewaySeconds = config.tokenLeewaySeconds;
  std::function<auth::SigningKeySet()> reloadKeys;
  if (registry->signingKeysMayChange()) reloadKeys = [&registry = *registry] { return registry.signingKeys(); };
  auth = std::make_unique<auth::AuthService>(authSettings, registry->signingKeys(), std::move(reloadKeys),
                                             registry->openClients(auth::systemUnixSeconds), registry->secretHasher());
  largeRequests = std::make_unique<LargeRequestSlots>(
      LargeRequestLimits{config.largeBodyBytes, config.maxLargeRequestsPerClient,
                         config.maxLargeRequestsPerOrganization, config.maxLargeRequests});
  usage = std::make_unique<auth::UsageService>(registry->openUsage(), config.usageFlushInterval,
                                               [serviceLog = log](const std::string& message) {
                                                 serviceLog({app::LogLevel::Warning, message});
                                               });
  if (config.dashboardEnabled) {
    dashboard = std::make_unique<DashboardAccounts>(*registry);
    dashboard->onStandingChange([service = auth.get()] { service->refreshRegistryView(); });
  }
}

// The configured certificate, or the development one made in the data
// directory, in the TLS context every TLS listener uses.
void CodePayloadService::Running::loadCertificate() {
  certificateFile = config.tlsCertificateFile;
  std::filesystem::path privateKeyFile = config.tlsPrivateKeyFile;
  if (certificateFile.empty()) {
    const DevelopmentCertificate development = ensureDevelopmentCertificate(config.dataDir);
    certificateFile = development.certificateFile;
    privateKeyFile = development.privateKeyFile;
    log(std::string(development.generated ? "generated" : "using") + " a self-signed development certificate " +
        certificateFile.string() + " (not for production: set tls.certificate and tls.privateKey)");
  }
  try {
    tls = serverTlsContext(certificateFile, privateKeyFile, "codepayload");
  } catch (const Poco::Exception& error) {
    throw std::runtime_error("cannot use the TLS certificate " + certificateFile.string() + " and key " +
                             privateKeyFile.string() + ": " + error.displayText());
  }
  certificates = std::make_unique<TlsCertificateStore>(certificateFile, privateKeyFile, std::time(nullptr));
  if (certificates->warning()) log({app::LogLevel::Warning, *certificates->warning()});
  certificates->attachTo(tls->sslContext());
}

void CodePayloadService::Running::makeContext() {
  accessLog = std::make_unique<AccessLog>(config.accessLog);
  metrics = std::make_unique<ServiceMetrics>();
  context = std::make_unique<ServiceContext>(ServiceContext{config, *rules, *engine, *auth, *accessLog, log,
                                                            *largeRequests, *metrics, *usage, dashboard.get()});
  const bool dashboardApart = config.dashboardEnabled && config.dashboardListen.has_value();
  router = std::make_unique<RequestRouter>(*context, config.dashboardEnabled && !dashboardApart
                                                         ? RequestRouter::Scope::ApiAndDashboard
                                                         : RequestRouter::Scope::Api);
  if (dashboardApart) dashboardRouter = std::make_unique<RequestRouter>(*context, RequestRouter::Scope::Dashboard);
}

// The HTTPS listener, and the plain HTTP and dashboard ones when configured,
// all served by one transport.
void CodePayloadService::Running::bindListeners() {
  http = httpSettings(config);
  transport = std::make_unique<HttpTransport>(connectionLimits(config), http, log);
  const auto listen = [this](const ListenAddress& address) {
    Poco::Net::ServerSocket socket;
    bindExclusively(socket, address, config.listenBacklog);
    // A connection that sends nothing never reaches a worker.
    if (config.firstBytesTimeout.count() > 0) deferAcceptUntilFirstBytes(socket, config.firstBytesTimeout);
    return socket;
  };
  const Poco::Net::ServerSocket httpsSocket = listen(config.listen);
  httpsPort = httpsSocket.address().port();
  std::optional<Poco::Net::ServerSocket> plainSocket;
  if (config.plainListen) {
    plainSocket = listen(*config.plainListen);
    plainPort = plainSocket->address().port();
  }
  std::optional<Poco::Net::ServerSocket> dashboardSocket;
  if (dashboardRouter) {
    dashboardSocket = listen(*config.dashboardListen);
    dashboardPort = dashboardSocket->address().port();
  }
  transport->serve(httpsSocket, tls->sslContext(), *router);
  if (plainSocket) transport->serve(*plainSocket, nullptr, *router);
  if (dashboardSocket) transport->serve(*dashboardSocket, tls->sslContext(), *dashboardRouter);
}

void CodePayloadService::Running::startBackgroundWork(const LoadedRules& loaded) {
  if (dashboard) {
    sessionSweeper = std::make_unique<SessionSweeper>(
        dashboard->accounts(), dashboard->sessions().settings().idleSeconds, kSessionSweepInterval, log);
  }
  watcher = std::make_unique<RulesWatcher>(loaded.database, config.rulesDir, *rules, loaded.identity,
                                           config.reloadInterval, log);
  if (releaseFollower) releaseFollower->follow(kPublishedReleaseInterval);
}

void CodePayloadService::Running::startMetrics() {
  if (!config.metricsListen) return;
  Poco::Net::ServerSocket metricsSocket;
  bindExclusively(metricsSocket, *config.metricsListen, kMetricsBacklog);
  metricsPort = metricsSocket.address().port();
  metricsEndpoint = std::make_unique<MetricsEndpoint>([this](std::string& out) { renderMetrics(out); });
  ConnectionLimits limits;
  limits.perAddress = kMetricsConnections;
  limits.maxConnections = kMetricsConnections;
  limits.maxQueued = kMetricsQueued;
  limits.minThreads = 1;
  limits.maxThreads = kMetricsThreads;
  metricsTransport = std::make_unique<HttpTransport>(limits, http, log);
  metricsTransport->serve(metricsSocket, nullptr, *metricsEndpoint);
}

std::string CodePayloadService::Running::listeningLine() const {
  std::string line = "listening on https://" + urlHost(config.listen.host) + ":" + std::to_string(httpsPort);
  if (plainPort) line += " and http://" + urlHost(config.plainListen->host) + ":" + std::to_string(*plainPort);
  if (config.dashboardEnabled && !dashboardPort) {
    line += ", dashboard on https://" + urlHost(config.listen.host) + ":" + std::to_string(httpsPort) + "/dashboard/";
  }
  if (dashboardPort) {
    line += ", dashboard on https://" + urlHost(config.dashboardListen->host) + ":" + std::to_string(*dashboardPort) +
            "/dashboard/";
  }
  if (metricsPort) {
    line +=
        ", metrics on http://" + urlHost(config.metricsListen->host) + ":" + std::to_string(*metricsPort) + "/metrics";
  }
  return line + " (rules release " + rules->current()->release().name + ", data dir " + config.dataDir.string() + ")";
}

CodePayloadService::CodePayloadService(ServerConfig config, ServiceLogger log)
    : config_(std::move(config)), log_(log ? std::move(log) : ServiceLogger(app::logEvent)) {}

CodePayloadService::~CodePayloadService() { stop(); }

void CodePayloadService::start() {
  if (running_) throw std::logic_error("the service is already started");
  auto running = std::make_unique<Running>(config_, log_);
  running->openDataDirectory();
  running->openRegistry();
  running->installPublishedRelease();
  const LoadedRules loaded = running->loadRules();
  running->startAuth();
  running->loadCertificate();
  running->makeContext();
  running->bindListeners();
  running->startBackgroundWork(loaded);
  running->startMetrics();
  // Only the data directory lock's holder writes it: a fixed temporary name.
  common::writeFileAtomically(config_.dataDir / kPortFile, std::to_string(running->httpsPort) + "\n",
                              {.mode = 0600, .temporaryName = common::TemporaryName::Fixed});
  const std::string line = running->listeningLine();
  running_ = std::move(running);
  log_(line);
}

void CodePayloadService::stop() {
  if (!running_) return;
  Running& running = *running_;
  running.stopMetrics();
  running.releaseFollower.reset();
  running.watcher.reset();
  running.sessionSweeper.reset();
  HttpTransport& transport = *running.transport;
  transport.stopAccepting();
  // Connections waiting for a next request close now; each one with a
  // request in flight closes once that request is answered.
  transport.stopConnections(false);
  const auto deadline = std::chrono::steady_clock::now() + config_.shutdownGrace;
  while (transport.openConnections() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const std::size_t abandoned = transport.openConnections();
  if (abandoned > 0) {
    log_({app::LogLevel::Warning,
          "shutdown grace over: closing " + std::to_string(abandoned) + " connection(s) still open"});
    transport.stopConnections(true);
  }
  std::error_code ignored;
  std::filesystem::remove(config_.dataDir / kPortFile, ignored);
  running_.reset();
  log_("stopped");
}

void CodePayloadService::reload() {
  if (!running_) return;
  const std::filesystem::path& certificateFile = running_->certificates->certificateFile();
  try {
    const std::optional<std::string> warning = running_->certificates->reload(std::time(nullptr));
    log_("reloaded the TLS certificate " + certificateFile.string() + ": new connections get it");
    if (warning) log_({app::LogLevel::Warning, *warning});
  } catch (const std::exception& error) {
    log_({app::LogLevel::Error,
          "TLS certificate reload failed, new connections still get the current one: " + std::string(error.what())});
  }
  if (running_->releaseFollower) running_->releaseFollower->checkNow();
  running_->watcher->checkNow();
}

void CodePayloadService::flushAccessLog() {
  if (running_) running_->accessLog->flush();
}

HttpTransport::Counts CodePayloadService::connectionCounts() const {
  if (!running_) throw std::logic_error("the service is not started");
  return running_->transport->counts();
}

std::uint16_t CodePayloadService::httpsPort() const { return running_ ? running_->httpsPort : 0; }

std::optional<std::uint16_t> CodePayloadService::plainPort() const {
  return running_ ? running_->plainPort : std::nullopt;
}

std::optional<std::uint16_t> CodePayloadService::dashboardPort() const {
  return running_ ? running_->dashboardPort : std::nullopt;
}

std::optional<std::uint16_t> CodePayloadService::metricsPort() const {
  return running_ ? running_->metricsPort : std::nullopt;
}

const std::filesystem::path& CodePayloadService::certificateFile() const {
  if (!running_) throw std::logic_error("the service is not started");
  return running_->certificateFile;
}

SnapshotHolder& CodePayloadService::rules() {
  if (!running_) throw std::logic_error("the service is not started");
  return *running_->rules;
}

auth::UsageService& CodePayloadService::usage() {
  if (!running_) throw std::logic_error("the service is not started");
  return *running_->usage;
}

auth::AuthService& CodePayloadService::auth() {
  if (!running_) throw std::logic_error("the service is not started");
  return *running_->auth;
}

}  // namespace codepayload::server
