// Starts the real service in process (HTTPS on 127.0.0.1, port 0, a fresh
// temporary data directory) and talks to it with real clients: Poco's
// HTTPSClientSession trusting the generated development certificate, and a
// raw TLS socket for byte-exact framing tests.
#pragma once

#include <Poco/Net/Context.h>
#include <Poco/Net/SecureStreamSocket.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "auth/client_registry.h"
#include "server/config/server_config.h"
#include "server/service.h"

namespace codepayload::server::testing {

struct HttpCall {
  std::string method = "GET";
  std::string target = "/";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct HttpResult {
  int status = 0;
  std::string reason;
  std::multimap<std::string, std::string> headers;  // names lower-cased
  std::string body;

  // The first value of `lowerCaseName`, or "<absent>".
  std::string header(const std::string& lowerCaseName) const;
  bool has(const std::string& lowerCaseName) const { return headers.count(lowerCaseName) != 0; }
};

struct ApiClient {
  std::string organizationId;
  std::string clientId;
  std::string secret;
};

class ServiceHarness {
 public:
  // `adjust` may change the configuration before the service starts.
  explicit ServiceHarness(const std::function<void(ServerConfig&)>& adjust = {});
  ~ServiceHarness();

  CodePayloadService& service() { return *service_; }
  const std::filesystem::path& dataDir() const { return dataDir_; }
  const std::filesystem::path& accessLogFile() const { return accessLogFile_; }
  std::uint16_t port() const { return port_; }
  std::vector<std::string> serviceLog() const;
  // The service log's lines about one request: (request id, message).
  std::vector<std::pair<std::string, std::string>> requestLogLines() const;
  std::vector<std::string> accessLogLines() const;

  // One request on a fresh connection.
  HttpResult request(const HttpCall& call);

  // A client of a new organization on `plan`, created through the registry.
  ApiClient createClient(const std::vector<std::string>& scopes, auth::Plan plan = auth::Plan::Starter);
  // POST /oauth/token with Basic credentials; the access token (fails the test otherwise).
  std::string token(const ApiClient& client);
  // POST /codes with a bearer token and the given body (application/json).
  HttpResult codes(const std::string& accessToken, const std::string& body,
                   std::vector<std::pair<std::string, std::string>> extraHeaders = {});
  // POST /codes/parse, the same way.
  HttpResult parse(const std::string& accessToken, const std::string& body,
                   std::vector<std::pair<std::string, std::string>> extraHeaders = {});

  // A TLS client context trusting the service's certificate.
  Poco::Net::Context::Ptr clientContext() const { return clientContext_; }

  // Stops the service now (the destructor also does).
  void stop();

 private:
  std::filesystem::path dataDir_;
  std::filesystem::path accessLogFile_;
  std::unique_ptr<CodePayloadService> service_;
  Poco::Net::Context::Ptr clientContext_;
  std::uint16_t port_ = 0;
  mutable std::mutex logMutex_;
  std::vector<std::string> serviceLog_;
  std::vector<std::string> serviceLogRequestIds_;  // one per line; "" when not about a request
};

// A raw TLS connection for framing tests: sends bytes as given, reads
// responses one at a time.
class RawConnection {
 public:
  explicit RawConnection(ServiceHarness& harness);

  void send(const std::string& bytes);
  // Reads one response (status line, headers, Content-Length body). Returns a
  // result with status 0 when the server closed the connection first.
  // `bodyExpected` false: the answer to a HEAD, whose Content-Length is the
  // GET's and which has no body (RFC 9110 §9.3.2).
  HttpResult readResponse(bool bodyExpected = true);
  // True when the server closed the connection (reads EOF within `within`).
  bool closedByServer(std::chrono::seconds within = std::chrono::seconds(2));

 private:
  bool fill();

  Poco::Net::SecureStreamSocket socket_;
  std::string buffer_;
};

std::string basicAuthorization(const std::string& clientId, const std::string& secret);

// When RECORDED_RESPONSES_DIR is set (ctest sets it), appends the exchange
// (request headers, a request body up to 16 KiB, the whole response) as one
// JSON line to <dir>/<executable>.jsonl, which the first call of the process
// truncates: tests/openapi checks every recorded response against
// docs/openapi.json, and tests/openapi/log_secret_scan.py looks for every
// credential and token of these exchanges in the recorded logs. Does nothing
// otherwise.
void recordExchange(const HttpCall& call, const HttpResult& result);
// Likewise appends a server's logs (`text`, headed by `what`) to
// <dir>/<executable>.logs. ServiceHarness and the robustness tests'
// ServerProcess record theirs when they end.
void recordServerLogs(const std::string& what, const std::string& text);

}  // namespace codepayload::server::testing
