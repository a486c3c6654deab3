// D-S4, with the real executables: whoever created the data directory (here
// with mode 0755, as `mkdir` under the usual umask 022 does) and whatever an
// older install left in it (0644 databases and certificate), every file
// codepayload-server and codepayload-admin write there is 0600, and each warns
// once that group and others can enter the directory. codepayload-import is
// checked in tests/tools/cli_test.cpp.
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/support/admin_process.h"
#include "common/json_escape.h"
#include "tests/server/support/service_harness.h"
#include "tests/tools/test_files.h"

namespace codepayload::server::testing {
namespace {

using codepayload::testing::fileMode;

// Every entry of `directory` and its permission bits in octal ("0600").
std::map<std::string, std::string> modesIn(const std::filesystem::path& directory) {
  std::map<std::string, std::string> modes;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    struct stat status {};
    EXPECT_EQ(::lstat(entry.path().c_str(), &status), 0) << entry.path();
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(status.st_mode & 07777));
    modes[entry.path().filename().string()] = octal;
  }
  return modes;
}

// Each name with mode 0600.
std::map<std::string, std::string> ownerOnly(const std::vector<std::string>& names) {
  std::map<std::string, std::string> modes;
  for (const std::string& name : names) modes[name] = "0600";
  return modes;
}

std::string sharedDirectoryWarning(const std::filesystem::path& directory) {
  return "the data directory " + directory.string() +
         " has mode 0755: group or others can enter or list it (the files in it are kept 0600); run chmod 700 " +
         directory.string() + " unless a group shares it on purpose";
}

// How many lines of `log` end with `text`.
int linesEndingWith(const std::string& log, const std::string& text) {
  std::istringstream lines(log);
  int count = 0;
  for (std::string line; std::getline(lines, line);) count += line.ends_with(text) ? 1 : 0;
  return count;
}

// The end of the server's JSON log line warning `message`.
std::string warningLineEnd(const std::string& message) {
  std::string end = R"("level":"warning","program":"codepayload-server","message":)";
  common::appendJsonString(end, message);
  return end + "}";
}

// A fresh folder holding `data`, pre-created with mode 0755.
class PreCreatedDataDir {
 public:
  PreCreatedDataDir() {
    std::random_device random;
    root_ = std::filesystem::temp_directory_path() /
            ("codepayload-modes-test-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(data());
    EXPECT_EQ(::chmod(data().c_str(), 0755), 0);
  }
  ~PreCreatedDataDir() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  PreCreatedDataDir(const PreCreatedDataDir&) = delete;
  PreCreatedDataDir& operator=(const PreCreatedDataDir&) = delete;

  std::filesystem::path data() const { return root_ / "data"; }

 private:
  std::filesystem::path root_;
};

// codepayload-server as a child process over `dataDir`, on a free port;
// stop() ends it with SIGTERM and returns its stderr.
class ServerExecutable {
 public:
  explicit ServerExecutable(const std::filesystem::path& dataDir) : dataDir_(dataDir) {
    Poco::Process::Env environment;
    environment["CODEPAYLOAD_DATA_DIR"] = dataDir.string();
    environment["CODEPAYLOAD_LISTEN"] = "127.0.0.1:0";
    environment["CODEPAYLOAD_ACCESS_LOG"] = "off";
    process_ = std::make_unique<Poco::ProcessHandle>(Poco::Process::launch(
        CODEPAYLOAD_SERVER_EXECUTABLE, {}, dataDir.parent_path().string(), nullptr, nullptr, &errPipe_, environment));
    const std::filesystem::path portFile = dataDir / "server.port";
    for (int attempt = 0; attempt < 400 && port_ == 0; ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      std::ifstream(portFile) >> port_;
    }
    EXPECT_GT(port_, 0) << "no port file";
  }
  ~ServerExecutable() {
    if (process_) stop();
  }
  ServerExecutable(const ServerExecutable&) = delete;
  ServerExecutable& operator=(const ServerExecutable&) = delete;

  // POST /oauth/token; the HTTP status.
  int requestToken(const std::string& clientId, const std::string& secret) const {
    const Poco::Net::Context::Ptr context =
        new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", (dataDir_ / "dev-tls-cert.pem").string(),
                               Poco::Net::Context::VERIFY_RELAXED);
    Poco::Net::HTTPSClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port_), context);
    Poco::Net::HTTPRequest request("POST", "/oauth/token", Poco::Net::HTTPMessage::HTTP_1_1);
    const std::string body = "grant_type=client_credentials";
    request.set("Authorization", basicAuthorization(clientId, secret));
    request.setContentType("application/x-www-form-urlencoded");
    request.setContentLength(static_cast<std::streamsize>(body.size()));
    session.sendRequest(request) << body;
    Poco::Net::HTTPResponse response;
    std::ostringstream ignored;
    Poco::StreamCopier::copyStream(session.receiveResponse(response), ignored);
    return response.getStatus();
  }

  std::string stop() {
    Poco::Process::requestTermination(process_->id());
    Poco::PipeInputStream err(errPipe_);
    std::ostringstream log;
    Poco::StreamCopier::copyStream(err, log);
    EXPECT_EQ(process_->wait(), 0) << log.str();
    process_.reset();
    return log.str();
  }

 private:
  std::filesystem::path dataDir_;
  Poco::Pipe errPipe_;
  std::unique_ptr<Poco::ProcessHandle> process_;
  int port_ = 0;
};

// An organization on Starter and a client with write:codes, made with
// codepayload-admin; {clientId, secret}.
std::pair<std::string, std::string> createClient(const std::filesystem::path& dataDir) {
  const AdminResult organization = runAdmin(dataDir, {"org", "create", "--name", "Acme", "--plan", "starter"});
  EXPECT_EQ(organization.exitCode, 0) << organization.err;
  const AdminResult client =
      runAdmin(dataDir, {"client", "create", "--org", jsonMember(organization.out, "id"), "--scope", "write:codes"});
  EXPECT_EQ(client.exitCode, 0) << client.err;
  return {jsonMember(client.out, "clientId"), jsonMember(client.out, "clientSecret")};
}

const std::vector<std::string> kFilesWhileServing = {
    "client-secret-pepper", "dev-tls-cert.pem", "dev-tls-key.pem", "registry.db", "registry.db-shm",
    "registry.db-wal",      "rules.db",         "server.lock",     "server.port", "token-signing-key.pem"};

TEST(DataDirectoryModes, TheServerWritesEveryFile0600IntoAPreCreated0755Directory) {
  const PreCreatedDataDir directory;
  // A registry.db from before D-S4: 0644.
  EXPECT_EQ(runAdmin(directory.data(), {"init"}).exitCode, 0);
  createClient(directory.data());
  ASSERT_EQ(::chmod((directory.data() / "registry.db").c_str(), 0644), 0);

  ServerExecutable server(directory.data());
  const auto [clientId, secret] = createClient(directory.data());
  EXPECT_EQ(server.requestToken(clientId, secret), 200);
  EXPECT_EQ(modesIn(directory.data()), ownerOnly(kFilesWhileServing));
  EXPECT_EQ(fileMode(directory.data()), 0755u);  // reported, not changed

  const std::string log = server.stop();
  EXPECT_EQ(linesEndingWith(log, warningLineEnd(sharedDirectoryWarning(directory.data()))), 1) << log;
  EXPECT_EQ(modesIn(directory.data()), ownerOnly({"client-secret-pepper", "dev-tls-cert.pem", "dev-tls-key.pem",
                                                  "registry.db", "rules.db", "server.lock", "token-signing-key.pem"}));
}

TEST(DataDirectoryModes, TheServerTightensWhatAnOlderInstallLeftReadable) {
  const PreCreatedDataDir directory;
  ServerExecutable(directory.data()).stop();
  // What the server wrote 0644 before D-S4, and SQLite files a crash left.
  for (const char* name : {"rules.db", "dev-tls-cert.pem", "registry.db", "registry.db-wal", "registry.db-shm"}) {
    const std::filesystem::path file = directory.data() / name;
    if (!std::filesystem::exists(file)) std::ofstream(file).close();
    ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  }

  ServerExecutable server(directory.data());
  const auto [clientId, secret] = createClient(directory.data());
  EXPECT_EQ(server.requestToken(clientId, secret), 200);
  EXPECT_EQ(modesIn(directory.data()), ownerOnly(kFilesWhileServing));
  const std::string log = server.stop();
  EXPECT_EQ(linesEndingWith(log, warningLineEnd(sharedDirectoryWarning(directory.data()))), 1) << log;
}

TEST(DataDirectoryModes, TheAdminWritesEveryFile0600IntoAPreCreated0755Directory) {
  const PreCreatedDataDir directory;
  const AdminResult created = runAdmin(directory.data(), {"init"});
  EXPECT_EQ(created.exitCode, 0);
  EXPECT_EQ(created.err,
            registryLine(directory.data()) + "codepayload-admin: " + sharedDirectoryWarning(directory.data()) + "\n");
  EXPECT_EQ(modesIn(directory.data()), ownerOnly({"client-secret-pepper", "registry.db"}));

  // A registry from before D-S4, with the -wal and -shm a crash left.
  for (const char* name : {"registry.db", "registry.db-wal", "registry.db-shm"}) {
    const std::filesystem::path file = directory.data() / name;
    if (!std::filesystem::exists(file)) std::ofstream(file).close();
    ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  }
  const AdminResult listed = runAdmin(directory.data(), {"org", "list"});
  EXPECT_EQ(listed.exitCode, 0) << listed.err;
  EXPECT_EQ(modesIn(directory.data()), ownerOnly({"client-secret-pepper", "registry.db"}));
  EXPECT_EQ(fileMode(directory.data()), 0755u);
}

TEST(DataDirectoryModes, NoWarningWhenTheAdminCreatesTheDirectory) {
  const PreCreatedDataDir directory;
  const std::filesystem::path created = directory.data() / "new";
  const AdminResult result = runAdmin(created, {"init"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.err, registryLine(created));
  EXPECT_EQ(fileMode(created), 0700u);
  EXPECT_EQ(modesIn(created), ownerOnly({"client-secret-pepper", "registry.db"}));
}

}  // namespace
}  // namespace codepayload::server::testing
