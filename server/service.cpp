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

}  // namespace

struct CodePayloadService::Running {
  // First member, so released last: after stop() removed server.port.
  std::unique_ptr<DataDirectoryLock> dataDirLock;
  std::filesystem::path certificateFile;
  // Before the transport: they outlive every TLS session.
  std::unique_ptr<TlsCertificateStore> certificates;
  Poco::Net::Context::Ptr tls;
  std::unique_ptr<SnapshotHolder> rules;
  std::unique_ptr<PayloadEngine> engine;
  // Before every part opened from it.
  std::unique_ptr<app::Registry> registry;
  std::unique_ptr<auth::AuthService> auth;
  std::unique_ptr<DashboardAccounts> dashboard;
  std::unique_ptr<SessionSweeper> sessionSweeper;
  // Stopped (its last write) once the handlers are done counting.
  std::unique_ptr<auth::UsageService> usage;
  std::unique_ptr<AccessLog> accessLog;
  std::unique_ptr<LargeRequestSlots> largeRequests;
  std::unique_ptr<ServiceMetrics> metrics;
  std::unique_ptr<ServiceContext> context;
  HttpSettings http;
  std::unique_ptr<RequestRouter> router;
  // The dashboard's own listener (dashboard.listen), when there is one.
  std::unique_ptr<RequestRouter> dashboardRouter;
  std::optional<std::uint16_t> dashboardPort;
  // Every listener but the metrics one.
  std::unique_ptr<HttpTransport> transport;
  std::unique_ptr<RulesWatcher> watcher;
  // The metrics listener: its own transport (workers, address slots), so a
  // scrape neither waits for nor takes an API worker or address slot.
  std::unique_ptr<MetricsEndpoint> metricsEndpoint;
  std::unique_ptr<HttpTransport> metricsTransport;
  std::uint16_t httpsPort = 0;
  std::optional<std::uint16_t> plainPort;
  std::optional<std::uint16_t> metricsPort;
  bool sslInitialized = false;

  ~Running() {
    // A scrape reads everything below: the metrics listener goes first.
    stopMetrics();
    // Handler threads use the context: servers and pool go first.
    watcher.reset();
    sessionSweeper.reset();
    transport.reset();
    dashboardRouter.reset();
    router.reset();
    context.reset();
    dashboard.reset();
    usage.reset();
    largeRequests.reset();
    engine.reset();
    auth.reset();
    rules.reset();
    tls.reset();
    certificates.reset();
    if (sslInitialized) Poco::Net::uninitializeSSL();
  }

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
    const HttpTransport::Counts connections = transport->counts();
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
    values.refusedOverAddressLimit = connections.refusedOverAddressLimit;
    values.refusedOverConnectionLimit = connections.refusedOverConnectionLimit;
    values.refusedQueueFull = connections.refusedQueueFull;
    values.closedOverdue = connections.closedOverdue;
    values.closedSlowReader = connections.closedSlowReader;
    values.openConnections = static_cast<std::int64_t>(transport->openConnections());
    writePrometheusText(values, *metrics, engineMetrics(), out);
  }
};

CodePayloadService::CodePayloadService(ServerConfig config, ServiceLogger log)
    : config_(std::move(config)), log_(log ? std::move(log) : ServiceLogger(app::logEvent)) {}

CodePayloadService::~CodePayloadService() { stop(); }

void CodePayloadService::start() {
  if (running_) throw std::logic_error("the service is already started");
  auto running = std::make_unique<Running>();
  const std::filesystem::path& dataDir = config_.dataDir;
  if (!std::filesystem::exists(dataDir)) {
    std::filesystem::create_directories(dataDir);
    std::filesystem::permissions(dataDir, std::filesystem::perms::owner_all);
  }
  running->dataDirLock = std::make_unique<DataDirectoryLock>(dataDir);
  if (const std::optional<std::string> warning = filemodes::sharedDirectoryWarning(dataDir)) {
    log_({app::LogLevel::Warning, *warning});
  }

  const std::filesystem::path& rulesDirectory = config_.rulesDir;
  const std::filesystem::path rulesDatabase = dataDir / kRulesDatabaseFile;
  if (!std::filesystem::exists(rulesDatabase)) {
    const std::filesystem::path baseline = importer::baselinePath(rulesDirectory);
    importer::importBaseline(baseline, rulesDatabase, builtinLinterCatalog(rulesDirectory), config_.schemaDir);
    log_("created the rules database " + rulesDatabase.string() + " from the shipped baseline " + baseline.string());
  }
  // Installs before D-S4 wrote it 0644.
  filemodes::restrictDatabaseToOwner(rulesDatabase);
  const std::optional<FileIdentity> loadedIdentity = identifyFile(rulesDatabase);
  running->rules = std::make_unique<SnapshotHolder>(loadRulesSnapshot(rulesDatabase, rulesDirectory));
  running->engine = std::make_unique<PayloadEngine>(*running->rules, EngineLimits{config_.maxItems});

  running->registry = app::openRegistry({dataDir, auth::registryMigrationsDir(config_.schemaDir)});
  auth::AuthSettings authSettings;
  authSettings.dataDir = dataDir;
  authSettings.token.issuer = config_.issuer;
  authSettings.token.audience = config_.audience;
  authSettings.token.lifetimeSeconds = config_.tokenTtlSeconds;
  authSettings.token.leewaySeconds = config_.tokenLeewaySeconds;
  running->auth = std::make_unique<auth::AuthService>(
      authSettings, running->registry->openClients(auth::systemUnixSeconds), running->registry->secretHasher());
  if (config_.dashboardEnabled) {
    running->dashboard = std::make_unique<DashboardAccounts>(*running->registry);
    running->dashboard->onStandingChange([auth = running->auth.get()] { auth->refreshRegistryView(); });
  }
  running->usage = std::make_unique<auth::UsageService>(running->registry->openUsage(), config_.usageFlushInterval,
                                                        [log = log_](const std::string& message) {
                                                          log({app::LogLevel::Warning, message});
                                                        });

  std::filesystem::path certificateFile = config_.tlsCertificateFile;
  std::filesystem::path privateKeyFile = config_.tlsPrivateKeyFile;
  if (certificateFile.empty()) {
    const DevelopmentCertificate development = ensureDevelopmentCertificate(dataDir);
    certificateFile = development.certificateFile;
    privateKeyFile = development.privateKeyFile;
    log_(std::string(development.generated ? "generated" : "using") + " a self-signed development certificate " +
         certificateFile.string() + " (not for production: set tls.certificate and tls.privateKey)");
  }
  running->certificateFile = certificateFile;

  running->accessLog = std::make_unique<AccessLog>(config_.accessLog);
  running->largeRequests = std::make_unique<LargeRequestSlots>(
      LargeRequestLimits{config_.largeBodyBytes, config_.maxLargeRequestsPerClient,
                         config_.maxLargeRequestsPerOrganization, config_.maxLargeRequests});
  running->metrics = std::make_unique<ServiceMetrics>();
  running->context = std::make_unique<ServiceContext>(
      ServiceContext{config_, *running->rules, *running->engine, *running->auth, *running->accessLog, log_,
                     *running->largeRequests, *running->metrics, *running->usage, running->dashboard.get()});

  Poco::Net::initializeSSL();
  running->sslInitialized = true;
  try {
    running->tls = serverTlsContext(certificateFile, privateKeyFile, "codepayload");
  } catch (const Poco::Exception& error) {
    throw std::runtime_error("cannot use the TLS certificate " + certificateFile.string() + " and key " +
                             privateKeyFile.string() + ": " + error.displayText());
  }
  running->certificates = std::make_unique<TlsCertificateStore>(certificateFile, privateKeyFile, std::time(nullptr));
  if (running->certificates->warning()) log_({app::LogLevel::Warning, *running->certificates->warning()});
  running->certificates->attachTo(running->tls->sslContext());

  const bool dashboardApart = config_.dashboardEnabled && config_.dashboardListen.has_value();
  running->router = std::make_unique<RequestRouter>(*running->context, config_.dashboardEnabled && !dashboardApart
                                                                           ? RequestRouter::Scope::ApiAndDashboard
                                                                           : RequestRouter::Scope::Api);
  if (dashboardApart) {
    running->dashboardRouter = std::make_unique<RequestRouter>(*running->context, RequestRouter::Scope::Dashboard);
  }
  running->http = httpSettings(config_);
  running->transport = std::make_unique<HttpTransport>(connectionLimits(config_), running->http, log_);
  const auto listen = [this](const ListenAddress& address) {
    Poco::Net::ServerSocket socket;
    bindExclusively(socket, address, config_.listenBacklog);
    // A connection that sends nothing never reaches a worker (D-T1).
    if (config_.firstBytesTimeout.count() > 0) deferAcceptUntilFirstBytes(socket, config_.firstBytesTimeout);
    return socket;
  };
  SSL_CTX* const tls = running->tls->sslContext();
  const Poco::Net::ServerSocket httpsSocket = listen(config_.listen);
  running->httpsPort = httpsSocket.address().port();
  std::optional<Poco::Net::ServerSocket> plainSocket;
  if (config_.plainListen) {
    plainSocket = listen(*config_.plainListen);
    running->plainPort = plainSocket->address().port();
  }
  std::optional<Poco::Net::ServerSocket> dashboardSocket;
  if (dashboardApart) {
    dashboardSocket = listen(*config_.dashboardListen);
    running->dashboardPort = dashboardSocket->address().port();
  }
  running->transport->serve(httpsSocket, tls, *running->router);
  if (plainSocket) running->transport->serve(*plainSocket, nullptr, *running->router);
  if (dashboardSocket) running->transport->serve(*dashboardSocket, tls, *running->dashboardRouter);

  if (running->dashboard) {
    running->sessionSweeper = std::make_unique<SessionSweeper>(running->dashboard->accounts(),
                                                               running->dashboard->sessions().settings().idleSeconds,
                                                               kSessionSweepInterval, log_);
  }
  running->watcher = std::make_unique<RulesWatcher>(rulesDatabase, rulesDirectory, *running->rules, loadedIdentity,
                                                    config_.reloadInterval, log_);
  if (config_.metricsListen) {
    Poco::Net::ServerSocket metricsSocket;
    bindExclusively(metricsSocket, *config_.metricsListen, kMetricsBacklog);
    running->metricsPort = metricsSocket.address().port();
    Running* const parts = running.get();
    running->metricsEndpoint =
        std::make_unique<MetricsEndpoint>([parts](std::string& out) { parts->renderMetrics(out); });
    ConnectionLimits limits;
    limits.perAddress = kMetricsConnections;
    limits.maxConnections = kMetricsConnections;
    limits.maxQueued = kMetricsQueued;
    limits.minThreads = 1;
    limits.maxThreads = kMetricsThreads;
    running->metricsTransport = std::make_unique<HttpTransport>(limits, running->http, log_);
    running->metricsTransport->serve(metricsSocket, nullptr, *running->metricsEndpoint);
  }
  // Only the data directory lock's holder writes it: a fixed temporary name.
  common::writeFileAtomically(dataDir / kPortFile, std::to_string(running->httpsPort) + "\n",
                              {.mode = 0600, .temporaryName = common::TemporaryName::Fixed});
  std::string line = "listening on https://" + urlHost(config_.listen.host) + ":" + std::to_string(running->httpsPort);
  if (running->plainPort) {
    line += " and http://" + urlHost(config_.plainListen->host) + ":" + std::to_string(*running->plainPort);
  }
  if (running->dashboardPort) {
    line += ", dashboard on https://" + urlHost(config_.dashboardListen->host) + ":" +
            std::to_string(*running->dashboardPort) + "/dashboard/";
  }
  if (running->metricsPort) {
    line += ", metrics on http://" + urlHost(config_.metricsListen->host) + ":" +
            std::to_string(*running->metricsPort) + "/metrics";
  }
  line += " (rules release " + running->rules->current()->release().name + ", data dir " + dataDir.string() + ")";
  running_ = std::move(running);
  log_(line);
}

void CodePayloadService::stop() {
  if (!running_) return;
  Running& running = *running_;
  running.stopMetrics();
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
