// The whole service in one object: prepares the data directory (rules
// database from the shipped baseline, registry, keys, development
// certificate), starts the HTTPS listener (and the optional plain one), the
// rules watcher and the OAuth registry refresher, and stops them gracefully.
// main() runs one; the integration tests start one in process on port 0.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "server/config/server_config.h"
#include "server/connections/http_transport.h"
#include "server/handlers/service_context.h"

namespace codepayload::auth {
class AuthService;
class UsageService;
}  // namespace codepayload::auth

namespace codepayload::server {

inline constexpr std::string_view kRulesDatabaseFile = "rules.db";
inline constexpr std::string_view kPortFile = "server.port";

class CodePayloadService {
 public:
  // Validates nothing further (ServerConfig is already valid) and does no I/O.
  // `log` receives one line per operational event (default: app::events()).
  explicit CodePayloadService(ServerConfig config, ServiceLogger log = {});
  ~CodePayloadService();  // stop()

  CodePayloadService(const CodePayloadService&) = delete;
  CodePayloadService& operator=(const CodePayloadService&) = delete;

  // Prepares the data directory and starts listening; returns once requests
  // are served. Throws std::exception with a readable message on any failure
  // (nothing is left listening then).
  void start();

  // Stops accepting, lets requests in flight finish for at most
  // config.shutdownGrace, then closes what is left. Idempotent.
  void stop();

  // SIGHUP (D-V2): reads the TLS certificate and key files again (a pair that
  // fails checkTlsCertificate is logged and the current one stays; new
  // connections get the new pair, open ones keep theirs) and checks the
  // release a shared registry publishes and the rules database for a new
  // release now. Logs each outcome; never throws.
  void reload();

  std::uint16_t httpsPort() const;
  std::optional<std::uint16_t> plainPort() const;
  // The dashboard's own listener's port (dashboard.listen), when there is one.
  std::optional<std::uint16_t> dashboardPort() const;
  // The metrics listener's port (metrics.listen), when there is one.
  std::optional<std::uint16_t> metricsPort() const;
  // The certificate the HTTPS listener presents (configured or generated).
  const std::filesystem::path& certificateFile() const;
  const ServerConfig& config() const { return config_; }
  SnapshotHolder& rules();
  auth::AuthService& auth();
  // The API clients' usage (counted by the handlers, read by the dashboard).
  auth::UsageService& usage();
  // Writes out the access log lines buffered so far (the log is written every
  // 100 ms otherwise).
  void flushAccessLog();
  // Connections refused at accept and closed by a deadline so far.
  HttpTransport::Counts connectionCounts() const;

 private:
  struct Running;
  ServerConfig config_;
  ServiceLogger log_;
  std::unique_ptr<Running> running_;
};

}  // namespace codepayload::server
