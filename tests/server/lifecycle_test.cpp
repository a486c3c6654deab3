// Starting and stopping: the executable's startup line and port file, SIGTERM
// ending it cleanly, a request in flight finishing during a graceful stop, and
// startup refusing a bad configuration.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/support/service_harness.h"
#include "tests/server/support/sample_requests.h"

namespace codepayload::server::testing {
namespace {

TEST(ServiceLifecycle, AnInFlightRequestFinishesDuringAGracefulStop) {
  ServiceHarness harness;
  const std::string token = harness.token(harness.createClient({"write:codes"}));
  RawConnection connection(harness);
  const std::string body(kOneItem);
  connection.send("POST /codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token +
                  "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
                  body.substr(0, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the handler is now reading the body
  auto stopped = std::async(std::launch::async, [&harness] { harness.stop(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(stopped.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);
  connection.send(body.substr(10));
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.body, kOneItemResponse);
  EXPECT_EQ(stopped.wait_for(std::chrono::seconds(3)), std::future_status::ready);
  EXPECT_TRUE(connection.closedByServer());
  EXPECT_FALSE(std::filesystem::exists(harness.dataDir() / "server.port"));
  EXPECT_EQ(harness.serviceLog().back(), "stopped");
}

TEST(ServiceLifecycle, OptionalPlainListenerServesTheSameRoutes) {
  ServiceHarness harness([](ServerConfig& config) { config.plainListen = ListenAddress{"127.0.0.1", 0}; });
  ASSERT_TRUE(harness.service().plainPort());
  EXPECT_NE(*harness.service().plainPort(), harness.port());
  Poco::Net::HTTPClientSession session("127.0.0.1", *harness.service().plainPort());
  Poco::Net::HTTPRequest request("GET", "/healthz", Poco::Net::HTTPMessage::HTTP_1_1);
  session.sendRequest(request);
  Poco::Net::HTTPResponse response;
  std::ostringstream body;
  Poco::StreamCopier::copyStream(session.receiveResponse(response), body);
  EXPECT_EQ(response.getStatus(), Poco::Net::HTTPResponse::HTTP_OK);
  EXPECT_EQ(body.str(), R"({"status":"ok","release":"2026-01-27"})");
  bool listed = false;
  for (const std::string& line : harness.serviceLog()) {
    if (line.starts_with("listening on https://127.0.0.1:" + std::to_string(harness.port()) + " and http://127.0.0.1:" +
                         std::to_string(*harness.service().plainPort()) + ", dashboard on https://127.0.0.1:" +
                         std::to_string(harness.port()) + "/dashboard/ (rules release 2026-01-27, data dir ")) {
      listed = true;
    }
  }
  EXPECT_TRUE(listed);
}

TEST(ServiceLifecycle, StartupRefusesAnUnusableCertificate) {
  const auto directory = std::filesystem::temp_directory_path() / ("codepayload-badcert-" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  std::ofstream(directory / "cert.pem") << "not a certificate";
  std::ofstream(directory / "key.pem") << "not a key";
  ServerConfig config;
  config.dataDir = directory / "data";
  config.listen = ListenAddress{"127.0.0.1", 0};
  config.tlsCertificateFile = directory / "cert.pem";
  config.tlsPrivateKeyFile = directory / "key.pem";
  config.accessLog = "off";
  CodePayloadService service(config, [](std::string_view) {});
  try {
    service.start();
    ADD_FAILURE() << "started with a bad certificate";
  } catch (const std::exception& error) {
    EXPECT_TRUE(std::string(error.what())
                    .starts_with("cannot use the TLS certificate " + (directory / "cert.pem").string() + " and key " +
                                 (directory / "key.pem").string() + ": "))
        << error.what();
  }
  std::filesystem::remove_all(directory);
}

TEST(ServerExecutable, StartsOnAnEphemeralPortAndStopsOnSigterm) {
  const auto directory =
      std::filesystem::temp_directory_path() / ("codepayload-executable-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  Poco::Process::Env environment;
  environment["CODEPAYLOAD_DATA_DIR"] = (directory / "data").string();
  environment["CODEPAYLOAD_LISTEN"] = "127.0.0.1:0";
  environment["CODEPAYLOAD_ACCESS_LOG"] = (directory / "access.log").string();
  Poco::Pipe errPipe;
  Poco::ProcessHandle process = Poco::Process::launch(CODEPAYLOAD_SERVER_EXECUTABLE, {}, directory.string(), nullptr,
                                                      nullptr, &errPipe, environment);
  const auto portFile = directory / "data" / "server.port";
  for (int attempt = 0; attempt < 200 && !std::filesystem::exists(portFile); ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_TRUE(std::filesystem::exists(portFile));
  int port = 0;
  std::ifstream(portFile) >> port;
  ASSERT_GT(port, 0);

  Poco::Net::Context::Ptr context =
      new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "",
                             (directory / "data" / "dev-tls-cert.pem").string(), Poco::Net::Context::VERIFY_RELAXED);
  Poco::Net::HTTPSClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port), context);
  Poco::Net::HTTPRequest request("GET", "/healthz", Poco::Net::HTTPMessage::HTTP_1_1);
  session.sendRequest(request);
  Poco::Net::HTTPResponse response;
  std::ostringstream body;
  Poco::StreamCopier::copyStream(session.receiveResponse(response), body);
  EXPECT_EQ(response.getStatus(), Poco::Net::HTTPResponse::HTTP_OK);
  EXPECT_EQ(body.str(), R"({"status":"ok","release":"2026-01-27"})");
  session.reset();

  Poco::Process::requestTermination(process.id());
  EXPECT_EQ(process.wait(), 0);
  Poco::PipeInputStream err(errPipe);
  std::ostringstream log;
  Poco::StreamCopier::copyStream(err, log);
  const std::string text = log.str();
  // Every operational line is a JSON object with a level (D-P13).
  std::vector<std::string> messages;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const Poco::JSON::Object::Ptr object = Poco::JSON::Parser().parse(line).extract<Poco::JSON::Object::Ptr>();
    EXPECT_EQ(object->size(), 4u) << line;
    EXPECT_EQ(object->getValue<std::string>("level"), "info") << line;
    EXPECT_EQ(object->getValue<std::string>("program"), "codepayload-server") << line;
    EXPECT_TRUE(object->getValue<std::string>("time").ends_with("Z")) << line;
    EXPECT_EQ(object->getValue<std::string>("time").size(), 24u) << line;
    messages.push_back(object->getValue<std::string>("message"));
  }
  ASSERT_EQ(messages.size(), 5u) << text;
  EXPECT_TRUE(messages[0].starts_with("created the rules database " + (directory / "data" / "rules.db").string() +
                                      " from the shipped baseline "))
      << text;
  // The rule engine's own logger writes the same lines.
  EXPECT_EQ(messages[1],
            "rule module lua:gcp_allowlist is switched off: no prefixes configured (module.gcp_allowlist.prefixes)")
      << text;
  EXPECT_EQ(messages[2], "generated a self-signed development certificate " +
                             (directory / "data" / "dev-tls-cert.pem").string() +
                             " (not for production: set tls.certificate and tls.privateKey)")
      << text;
  EXPECT_EQ(messages[3], "listening on https://127.0.0.1:" + std::to_string(port) + ", dashboard on https://127.0.0.1:" +
                             std::to_string(port) + "/dashboard/ (rules release 2026-01-27, data dir " +
                             (directory / "data").string() + ")")
      << text;
  EXPECT_EQ(messages[4], "stopped") << text;
  EXPECT_FALSE(std::filesystem::exists(portFile));
  std::filesystem::remove_all(directory);
}

TEST(ServerExecutable, ABadSettingStopsStartupWithAClearMessage) {
  Poco::Process::Env environment;
  environment["CODEPAYLOAD_LISTEN"] = "127.0.0.1";
  Poco::Pipe errPipe;
  Poco::ProcessHandle process =
      Poco::Process::launch(CODEPAYLOAD_SERVER_EXECUTABLE, {}, ".", nullptr, nullptr, &errPipe, environment);
  Poco::PipeInputStream err(errPipe);
  std::ostringstream log;
  Poco::StreamCopier::copyStream(err, log);
  EXPECT_EQ(process.wait(), 78);  // EX_CONFIG
  EXPECT_EQ(log.str(),
            "codepayload-server: configuration error: environment variable CODEPAYLOAD_LISTEN (key listen): must be "
            "host:port (or [ipv6]:port) with a port from 0 to 65535, got '127.0.0.1'\n");
}

}  // namespace
}  // namespace codepayload::server::testing
