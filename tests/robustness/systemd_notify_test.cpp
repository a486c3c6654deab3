// The server under a systemd-style supervisor (D-V2, D-V3): what it says on
// $NOTIFY_SOCKET (READY only once it serves, watchdog pings, RELOADING then
// READY around a SIGHUP, STOPPING at SIGTERM), and what a SIGHUP does to the
// TLS certificate: new connections get the new pair, an open connection keeps
// working, and a pair that fails the check is logged and changes nothing.
#include <gtest/gtest.h>

#include <Poco/Crypto/X509Certificate.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/robustness/fault_support.h"
#include "tests/robustness/server_process.h"
#include "tests/robustness/tls_connection.h"
#include "tests/server/support/test_certificates.h"

namespace codepayload::robustness {
namespace {

using namespace std::chrono_literals;

// The receiving end of $NOTIFY_SOCKET: an AF_UNIX datagram socket.
class NotifySocket {
 public:
  explicit NotifySocket(const std::filesystem::path& path) : path_(path) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string text = path.string();
    if (fd_ < 0 || text.size() >= sizeof address.sun_path) throw std::runtime_error("cannot create " + text);
    text.copy(address.sun_path, text.size());
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      throw std::runtime_error("cannot bind " + text);
    }
  }
  ~NotifySocket() { ::close(fd_); }

  // The next message, or "" when none comes within `timeout`.
  std::string next(std::chrono::milliseconds timeout) {
    const timeval wait{static_cast<time_t>(timeout.count() / 1000),
                       static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    char buffer[4096];
    const ssize_t size = ::recv(fd_, buffer, sizeof buffer, 0);
    return size > 0 ? std::string(buffer, static_cast<std::size_t>(size)) : std::string();
  }

  // The next message that is not a watchdog ping, or "" within `timeout`.
  std::string nextBesidesPings(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      const std::string message = next(100ms);
      if (!message.empty() && message != "WATCHDOG=1") return message;
    }
    return {};
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

// The serial number of the certificate a new TLS connection is shown.
std::string presentedSerial(std::uint16_t port) {
  Poco::Net::Context::Ptr context =
      new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "", Poco::Net::Context::VERIFY_NONE);
  Poco::Net::SecureStreamSocket socket(Poco::Net::SocketAddress("127.0.0.1", port), context);
  socket.completeHandshake();
  return socket.peerCertificate().serialNumber();
}

std::string fileSerial(const std::filesystem::path& certificateFile) {
  return Poco::Crypto::X509Certificate(certificateFile.string()).serialNumber();
}

// Writes a new pair beside the live files and renames it over them.
void replacePair(const std::filesystem::path& certificateFile, const std::filesystem::path& keyFile) {
  const std::filesystem::path newCertificate = certificateFile.string() + ".new";
  const std::filesystem::path newKey = keyFile.string() + ".new";
  server::testing::writeCertificateAndKey(newCertificate, newKey, std::time(nullptr), -60, 90L * 24 * 3600);
  std::filesystem::rename(newKey, keyFile);
  std::filesystem::rename(newCertificate, certificateFile);
}

bool logHas(ChildProcess& process, const std::string& text) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (process.err().find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

TEST(SystemdNotify, ReadyPingsReloadAndStoppingAreReportedAndAReloadSwapsTheCertificateForNewConnections) {
  TemporaryFolder folder("systemd-notify");
  const std::filesystem::path dataDir = folder.path() / "data";
  NotifySocket notify(folder.path() / "notify.sock");
  ServerProcess server(dataDir,
                       {{"NOTIFY_SOCKET", (folder.path() / "notify.sock").string()}, {"WATCHDOG_USEC", "200000"}});
  const std::uint16_t port = server.endpoint().port;

  // READY comes once, after the listener serves; then pings every 100 ms.
  EXPECT_EQ(notify.nextBesidesPings(5s), "READY=1\nSTATUS=serving on port " + std::to_string(port));
  int pings = 0;
  for (const auto until = std::chrono::steady_clock::now() + 5s;
       pings < 3 && std::chrono::steady_clock::now() < until;) {
    if (notify.next(500ms) == "WATCHDOG=1") ++pings;
  }
  EXPECT_EQ(pings, 3);

  const std::filesystem::path certificateFile = dataDir / "dev-tls-cert.pem";
  const std::filesystem::path keyFile = dataDir / "dev-tls-key.pem";
  const std::string firstSerial = fileSerial(certificateFile);
  EXPECT_EQ(presentedSerial(port), firstSerial);
  TlsConnection openBefore(server.endpoint());

  // A new pair: RELOADING, then READY; new connections get it, the open one still works.
  replacePair(certificateFile, keyFile);
  const std::string secondSerial = fileSerial(certificateFile);
  ASSERT_NE(secondSerial, firstSerial);
  ASSERT_EQ(::kill(server.process().pid(), SIGHUP), 0);
  EXPECT_TRUE(notify.nextBesidesPings(5s).starts_with("RELOADING=1\nMONOTONIC_USEC="));
  EXPECT_EQ(notify.nextBesidesPings(5s), "READY=1");
  EXPECT_TRUE(logHas(server.process(),
                     R"("level":"info","program":"codepayload-server","message":"reloaded the TLS certificate )" +
                         certificateFile.string() + ": new connections get it\"}\n"))
      << server.process().err();
  EXPECT_EQ(presentedSerial(port), secondSerial);
  ASSERT_TRUE(openBefore.send(requestBytes(HttpCall{"GET", "/healthz", {}, ""})));
  EXPECT_EQ(openBefore.readResponse().status, 200);

  // A key that does not match: logged, and the second pair stays.
  server::testing::writeKey(keyFile);
  ASSERT_EQ(::kill(server.process().pid(), SIGHUP), 0);
  EXPECT_TRUE(notify.nextBesidesPings(5s).starts_with("RELOADING=1\nMONOTONIC_USEC="));
  EXPECT_EQ(notify.nextBesidesPings(5s), "READY=1");
  EXPECT_TRUE(logHas(server.process(),
                     R"("level":"error","program":"codepayload-server","message":"TLS certificate reload failed, )"
                     "new connections still get the current one: the TLS key " +
                         keyFile.string() + " does not match the certificate " + certificateFile.string() + "\"}\n"))
      << server.process().err();
  EXPECT_EQ(presentedSerial(port), secondSerial);

  // SIGTERM: STOPPING, then a clean exit.
  ASSERT_EQ(::kill(server.process().pid(), SIGTERM), 0);
  EXPECT_EQ(notify.nextBesidesPings(5s), "STOPPING=1");
  EXPECT_EQ(server.process().wait(), (ChildExit{false, 0})) << server.process().err();
}

TEST(SystemdNotify, WithoutASupervisorSighupStillReloads) {
  TemporaryFolder folder("no-supervisor");
  const std::filesystem::path dataDir = folder.path() / "data";
  ServerProcess server(dataDir);
  const std::filesystem::path certificateFile = dataDir / "dev-tls-cert.pem";
  replacePair(certificateFile, dataDir / "dev-tls-key.pem");
  ASSERT_EQ(::kill(server.process().pid(), SIGHUP), 0);
  EXPECT_TRUE(logHas(server.process(), "reloaded the TLS certificate " + certificateFile.string()))
      << server.process().err();
  EXPECT_EQ(presentedSerial(server.endpoint().port), fileSerial(certificateFile));
  EXPECT_EQ(server.process().terminate(), (ChildExit{false, 0})) << server.process().err();
}

}  // namespace
}  // namespace codepayload::robustness
