// Start-up refusals: a port already in use, a data
// directory another server holds, a TLS key that does not match its
// certificate, a certificate outside its validity dates. In process (the
// exact exception) and as the real executable (exit 70, the exact line).
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/tls/tls_certificate_check.h"
#include "tests/server/support/service_harness.h"
#include "tests/server/support/sample_requests.h"
#include "tests/server/support/test_certificates.h"

namespace codepayload::server::testing {
namespace {

constexpr long kDay = 24 * 3600;

std::filesystem::path freshDirectory(const std::string& name) {
  const auto directory =
      std::filesystem::temp_directory_path() / ("codepayload-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  return directory;
}

ServerConfig configFor(const std::filesystem::path& dataDir, std::uint16_t port) {
  ServerConfig config;
  config.dataDir = dataDir;
  config.listen = ListenAddress{"127.0.0.1", port};
  config.accessLog = "off";
  return config;
}

// What start() threw, or "<started>".
std::string startRefusal(const ServerConfig& config) {
  CodePayloadService service(config, [](std::string_view) {});
  try {
    service.start();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "<started>";
}

std::string utcStamp(std::time_t seconds) {
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return stamp;
}

// codepayload-server as a child process with its stderr piped.
struct ServerProcess {
  ServerProcess(const std::filesystem::path& dataDir, const std::string& listen) {
    Poco::Process::Env environment;
    environment["CODEPAYLOAD_DATA_DIR"] = dataDir.string();
    environment["CODEPAYLOAD_LISTEN"] = listen;
    environment["CODEPAYLOAD_ACCESS_LOG"] = "off";
    handle = std::make_unique<Poco::ProcessHandle>(Poco::Process::launch(
        CODEPAYLOAD_SERVER_EXECUTABLE, {}, dataDir.parent_path().string(), nullptr, nullptr, &errPipe, environment));
  }
  // Waits for the exit; the exit code, stderr in `log`.
  int wait() {
    Poco::PipeInputStream err(errPipe);
    std::ostringstream text;
    Poco::StreamCopier::copyStream(err, text);
    log = text.str();
    return handle->wait();
  }
  std::string lastLine() const {
    std::string text = log;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  }

  Poco::Pipe errPipe;
  std::unique_ptr<Poco::ProcessHandle> handle;
  std::string log;
};

TEST(SafeStart, RefusesAPortInUseAndTheFirstServiceKeepsServing) {
  ServiceHarness first;
  const std::string token = first.token(first.createClient({"write:codes"}));
  const auto directory = freshDirectory("second-port");
  EXPECT_EQ(startRefusal(configFor(directory / "data", first.port())),
            "cannot listen on 127.0.0.1:" + std::to_string(first.port()) + ": the address is already in use");
  // The refused service left nothing behind on the port: every request reaches the first.
  for (int request = 0; request < 20; ++request) EXPECT_EQ(first.codes(token, kOneItem).status, 200);
  std::filesystem::remove_all(directory);
}

TEST(SafeStart, RefusesADataDirectoryAnotherServiceHolds) {
  ServiceHarness first;
  EXPECT_EQ(startRefusal(configFor(first.dataDir(), 0)),
            "another codepayload-server (pid " + std::to_string(::getpid()) + ") is using the data directory " +
                first.dataDir().string());
  std::uint16_t port = 0;
  std::ifstream(first.dataDir() / "server.port") >> port;
  EXPECT_EQ(port, first.port());
  first.stop();
  // Free again once the holder stopped.
  CodePayloadService next(configFor(first.dataDir(), 0), [](std::string_view) {});
  EXPECT_NO_THROW(next.start());
}

class SafeStartCertificate : public ::testing::Test {
 protected:
  void SetUp() override { directory_ = freshDirectory("safe-start-cert"); }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  ServerConfig config() const {
    ServerConfig config = configFor(directory_ / "data", 0);
    config.tlsCertificateFile = certificate();
    config.tlsPrivateKeyFile = key();
    return config;
  }
  std::filesystem::path certificate() const { return directory_ / "cert.pem"; }
  std::filesystem::path key() const { return directory_ / "key.pem"; }

  std::filesystem::path directory_;
};

TEST_F(SafeStartCertificate, RefusesAKeyThatDoesNotMatch) {
  writeCertificateAndKey(certificate(), key(), std::time(nullptr), -kDay, 90 * kDay);
  writeKey(key());
  EXPECT_EQ(startRefusal(config()),
            "the TLS key " + key().string() + " does not match the certificate " + certificate().string());
}

TEST_F(SafeStartCertificate, RefusesAnExpiredCertificate) {
  const std::time_t now = std::time(nullptr);
  writeCertificateAndKey(certificate(), key(), now, -90 * kDay, -kDay);
  EXPECT_EQ(startRefusal(config()),
            "the TLS certificate " + certificate().string() + " expired on " + utcStamp(now - kDay));
}

TEST_F(SafeStartCertificate, RefusesACertificateNotYetValid) {
  const std::time_t now = std::time(nullptr);
  writeCertificateAndKey(certificate(), key(), now, kDay, 90 * kDay);
  EXPECT_EQ(startRefusal(config()),
            "the TLS certificate " + certificate().string() + " is not valid before " + utcStamp(now + kDay));
}

TEST_F(SafeStartCertificate, WarnsOnceWhenItExpiresWithinThirtyDays) {
  const std::time_t now = std::time(nullptr);
  writeCertificateAndKey(certificate(), key(), now, -kDay, 10 * kDay + 3600);
  std::vector<std::string> log;
  CodePayloadService service(config(), [&log](std::string_view line) { log.emplace_back(line); });
  service.start();
  service.stop();
  EXPECT_EQ(std::count(log.begin(), log.end(),
                       "the TLS certificate " + certificate().string() + " expires on " +
                           utcStamp(now + 10 * kDay + 3600) + ", in 10 days"),
            1);
}

TEST(SafeStart, ReplacesADevelopmentCertificateThatExpires) {
  const auto directory = freshDirectory("dev-cert-renewal");
  const auto dataDir = directory / "data";
  std::filesystem::create_directories(dataDir);
  const std::time_t now = std::time(nullptr);
  writeCertificateAndKey(dataDir / "dev-tls-cert.pem", dataDir / "dev-tls-key.pem", now, -400 * kDay, 10 * kDay);
  std::vector<std::string> log;
  CodePayloadService service(configFor(dataDir, 0), [&log](std::string_view line) { log.emplace_back(line); });
  service.start();
  EXPECT_EQ(std::count(log.begin(), log.end(),
                       "generated a self-signed development certificate " + (dataDir / "dev-tls-cert.pem").string() +
                           " (not for production: set tls.certificate and tls.privateKey)"),
            1);
  service.stop();
  EXPECT_EQ(checkTlsCertificate(dataDir / "dev-tls-cert.pem", dataDir / "dev-tls-key.pem", now + 300 * kDay),
            std::nullopt);
  std::filesystem::remove_all(directory);
}

TEST(SafeStartExecutable, RefusesADataDirectoryAnotherProcessHoldsAndKeepsItsPortFile) {
  const auto directory = freshDirectory("executable-lock");
  const auto dataDir = directory / "data";
  ServerProcess first(dataDir, "127.0.0.1:0");
  const auto portFile = dataDir / "server.port";
  int port = 0;
  for (int attempt = 0; attempt < 400 && port == 0; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    std::ifstream(portFile) >> port;
  }
  ASSERT_GT(port, 0);

  ServerProcess second(dataDir, "127.0.0.1:0");
  EXPECT_EQ(second.wait(), 70);
  EXPECT_EQ(second.log, "codepayload-server: cannot start: another codepayload-server (pid " +
                            std::to_string(first.handle->id()) + ") is using the data directory " + dataDir.string() +
                            "\n");
  int portAfter = 0;
  std::ifstream(portFile) >> portAfter;
  EXPECT_EQ(portAfter, port);

  Poco::Process::requestTermination(first.handle->id());
  EXPECT_EQ(first.wait(), 0) << first.log;
  EXPECT_FALSE(std::filesystem::exists(portFile));
  std::filesystem::remove_all(directory);
}

TEST(SafeStartExecutable, RefusesAPortInUseAndTheFirstServerKeepsServing) {
  ServiceHarness first;
  const std::string token = first.token(first.createClient({"write:codes"}));
  const auto directory = freshDirectory("executable-port");
  ServerProcess second(directory / "data", "127.0.0.1:" + std::to_string(first.port()));
  EXPECT_EQ(second.wait(), 70);
  EXPECT_EQ(second.lastLine(), "codepayload-server: cannot start: cannot listen on 127.0.0.1:" +
                                   std::to_string(first.port()) + ": the address is already in use")
      << second.log;
  for (int request = 0; request < 20; ++request) EXPECT_EQ(first.codes(token, kOneItem).status, 200);
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace codepayload::server::testing
