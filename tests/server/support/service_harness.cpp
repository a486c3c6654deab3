#include "tests/server/support/service_harness.h"

#include <Poco/Base64Encoder.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "auth/auth_service.h"
#include "common/json_escape.h"

namespace codepayload::server::testing {

namespace {

std::string lowerCase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::filesystem::path freshDirectory() {
  static std::atomic<int> counter{0};
  std::random_device random;
  const auto directory =
      std::filesystem::temp_directory_path() / ("codepayload-http-test-" + std::to_string(::getpid()) + "-" +
                                                std::to_string(counter++) + "-" + std::to_string(random()));
  std::filesystem::create_directories(directory);
  return directory;
}

}  // namespace

std::string HttpResult::header(const std::string& lowerCaseName) const {
  const auto it = headers.find(lowerCaseName);
  return it == headers.end() ? "<absent>" : it->second;
}

namespace {

// Appends `text` to <RECORDED_RESPONSES_DIR>/<executable><suffix>; the first
// append of the process to that file truncates it.
void appendRecord(const std::string& suffix, const std::string& text) {
  static const char* const directory = std::getenv("RECORDED_RESPONSES_DIR");
  if (directory == nullptr || *directory == '\0') return;
  static std::mutex mutex;
  static std::set<std::string> truncated;
  const std::lock_guard lock(mutex);
  std::filesystem::create_directories(directory);
  const bool first = truncated.insert(suffix).second;
  std::ofstream out(std::filesystem::path(directory) / (std::string(program_invocation_short_name) + suffix),
                    first ? std::ios::trunc : std::ios::app);
  out << text;
  if (!out) ADD_FAILURE() << "cannot record in " << directory;
}

void appendJsonMembers(std::string& line, const auto& pairs) {
  line += '{';
  bool first = true;
  for (const auto& [name, value] : pairs) {
    if (!first) line += ',';
    first = false;
    common::appendJsonString(line, name);
    line += ':';
    common::appendJsonString(line, value);
  }
  line += '}';
}

// Request bodies up to this size are recorded (a token request's form, a
// small batch); larger ones are not: no test sends a secret in a large body.
constexpr std::size_t kRecordedRequestBodyBytes = 16 * 1024;

}  // namespace

void recordExchange(const HttpCall& call, const HttpResult& result) {
  if (std::getenv("RECORDED_RESPONSES_DIR") == nullptr) return;
  std::string line = R"({"method":)";
  common::appendJsonString(line, call.method);
  line += R"(,"target":)";
  common::appendJsonString(line, call.target);
  line += R"(,"requestHeaders":)";
  appendJsonMembers(line, call.headers);
  line += R"(,"requestBody":)";
  common::appendJsonString(line, call.body.size() <= kRecordedRequestBodyBytes ? call.body : std::string());
  line += R"(,"status":)" + std::to_string(result.status) + R"(,"headers":)";
  appendJsonMembers(line, result.headers);
  line += R"(,"body":)";
  common::appendJsonString(line, result.body);
  line += "}\n";
  appendRecord(".jsonl", line);
}

void recordServerLogs(const std::string& what, const std::string& text) {
  if (std::getenv("RECORDED_RESPONSES_DIR") == nullptr) return;
  appendRecord(".logs", "==== " + what + "\n" + text + (text.empty() || text.back() == '\n' ? "" : "\n"));
}

std::string basicAuthorization(const std::string& clientId, const std::string& secret) {
  std::ostringstream encoded;
  Poco::Base64Encoder encoder(encoded);
  encoder.rdbuf()->setLineLength(0);
  encoder << clientId << ':' << secret;
  encoder.close();
  return "Basic " + encoded.str();
}

ServiceHarness::ServiceHarness(const std::function<void(ServerConfig&)>& adjust) {
  const std::filesystem::path root = freshDirectory();
  dataDir_ = root / "data";
  accessLogFile_ = root / "access.log";
  ServerConfig config;
  config.dataDir = dataDir_;
  config.listen = ListenAddress{"127.0.0.1", 0};
  config.accessLog = accessLogFile_.string();
  config.minThreads = 2;
  config.maxThreads = 16;
  config.shutdownGrace = std::chrono::seconds(5);
  config.reloadInterval = std::chrono::milliseconds(100);
  if (adjust) adjust(config);
  service_ = std::make_unique<CodePayloadService>(config, [this](const app::LogLine& line) {
    const std::lock_guard lock(logMutex_);
    serviceLog_.emplace_back(line.message);
    serviceLogRequestIds_.emplace_back(line.requestId);
  });
  service_->start();
  port_ = service_->httpsPort();
  clientContext_ = new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "",
                                          service_->certificateFile().string(), Poco::Net::Context::VERIFY_RELAXED);
}

ServiceHarness::~ServiceHarness() {
  stop();
  std::string logs;
  for (const std::string& line : serviceLog()) logs += line + "\n";
  if (std::ifstream accessLog(accessLogFile_); accessLog) {
    std::ostringstream content;
    content << accessLog.rdbuf();
    logs += content.str();
  }
  recordServerLogs("service log and access log of " + dataDir_.string(), logs);
  std::error_code ignored;
  std::filesystem::remove_all(dataDir_.parent_path(), ignored);
}

void ServiceHarness::stop() {
  if (service_) service_->stop();
}

std::vector<std::string> ServiceHarness::serviceLog() const {
  const std::lock_guard lock(logMutex_);
  return serviceLog_;
}

std::vector<std::pair<std::string, std::string>> ServiceHarness::requestLogLines() const {
  const std::lock_guard lock(logMutex_);
  std::vector<std::pair<std::string, std::string>> lines;
  for (std::size_t i = 0; i < serviceLog_.size(); ++i) {
    if (!serviceLogRequestIds_[i].empty()) lines.emplace_back(serviceLogRequestIds_[i], serviceLog_[i]);
  }
  return lines;
}

std::vector<std::string> ServiceHarness::accessLogLines() const {
  service_->flushAccessLog();
  std::ifstream in(accessLogFile_);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

HttpResult ServiceHarness::request(const HttpCall& call) {
  Poco::Net::HTTPSClientSession session("127.0.0.1", port_, clientContext_);
  session.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request(call.method, call.target, Poco::Net::HTTPMessage::HTTP_1_1);
  for (const auto& [name, value] : call.headers) request.add(name, value);
  if (!call.body.empty() || call.method == "POST")
    request.setContentLength64(static_cast<Poco::Int64>(call.body.size()));
  std::ostream& out = session.sendRequest(request);
  out << call.body;
  Poco::Net::HTTPResponse response;
  std::istream& in = session.receiveResponse(response);
  HttpResult result;
  result.status = static_cast<int>(response.getStatus());
  result.reason = response.getReason();
  for (const auto& [name, value] : response) result.headers.emplace(lowerCase(name), value);
  std::ostringstream body;
  Poco::StreamCopier::copyStream(in, body);
  result.body = body.str();
  recordExchange(call, result);
  return result;
}

ApiClient ServiceHarness::createClient(const std::vector<std::string>& scopes, auth::Plan plan) {
  auth::ClientRegistry& registry = service_->auth().registry();
  const auth::Organization organization = registry.createOrganization("Test organization", plan);
  const auth::CreatedClient created = registry.createClient(organization.id, "test client", scopes, "tester");
  service_->auth().refreshRegistryView();
  return ApiClient{organization.id, created.client.id, created.secret};
}

std::string ServiceHarness::token(const ApiClient& client) {
  const HttpResult result = request(HttpCall{"POST",
                                             "/oauth/token",
                                             {{"Authorization", basicAuthorization(client.clientId, client.secret)},
                                              {"Content-Type", "application/x-www-form-urlencoded"}},
                                             "grant_type=client_credentials"});
  EXPECT_EQ(result.status, 200) << result.body;
  if (result.status != 200) return {};
  Poco::JSON::Parser parser;
  const auto object = parser.parse(result.body).extract<Poco::JSON::Object::Ptr>();
  return object->getValue<std::string>("access_token");
}

namespace {

HttpCall bearerPost(std::string target, const std::string& accessToken, const std::string& body,
                    std::vector<std::pair<std::string, std::string>> extraHeaders) {
  HttpCall call{"POST",
                std::move(target),
                {{"Authorization", "Bearer " + accessToken}, {"Content-Type", "application/json"}},
                body};
  for (auto& header : extraHeaders) call.headers.push_back(std::move(header));
  return call;
}

}  // namespace

HttpResult ServiceHarness::codes(const std::string& accessToken, const std::string& body,
                                 std::vector<std::pair<std::string, std::string>> extraHeaders) {
  return request(bearerPost("/codes", accessToken, body, std::move(extraHeaders)));
}

HttpResult ServiceHarness::parse(const std::string& accessToken, const std::string& body,
                                 std::vector<std::pair<std::string, std::string>> extraHeaders) {
  return request(bearerPost("/codes/parse", accessToken, body, std::move(extraHeaders)));
}

RawConnection::RawConnection(ServiceHarness& harness)
    : socket_(Poco::Net::SocketAddress("127.0.0.1", harness.port()), harness.clientContext()) {
  socket_.setReceiveTimeout(Poco::Timespan(5, 0));
}

void RawConnection::send(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const int n = socket_.sendBytes(bytes.data() + sent, static_cast<int>(bytes.size() - sent));
    if (n <= 0) throw std::runtime_error("send failed");
    sent += static_cast<std::size_t>(n);
  }
}

bool RawConnection::fill() {
  char chunk[16 * 1024];
  int n = 0;
  try {
    n = socket_.receiveBytes(chunk, sizeof chunk);
  } catch (const Poco::Exception&) {
    return false;
  }
  if (n <= 0) return false;
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

HttpResult RawConnection::readResponse(bool bodyExpected) {
  HttpResult result;
  std::size_t headerEnd;
  while ((headerEnd = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (!fill()) return result;
  }
  std::istringstream head(buffer_.substr(0, headerEnd));
  std::string statusLine;
  std::getline(head, statusLine);
  if (!statusLine.empty() && statusLine.back() == '\r') statusLine.pop_back();
  // "HTTP/1.1 200 OK"
  const auto firstSpace = statusLine.find(' ');
  const auto secondSpace = statusLine.find(' ', firstSpace + 1);
  result.status = std::stoi(statusLine.substr(firstSpace + 1, secondSpace - firstSpace - 1));
  result.reason = secondSpace == std::string::npos ? "" : statusLine.substr(secondSpace + 1);
  for (std::string line; std::getline(head, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    result.headers.emplace(lowerCase(line.substr(0, colon)), value);
  }
  buffer_.erase(0, headerEnd + 4);
  const std::size_t length =
      bodyExpected && result.has("content-length") ? std::stoul(result.header("content-length")) : 0;
  while (buffer_.size() < length) {
    if (!fill()) break;
  }
  result.body = buffer_.substr(0, length);
  buffer_.erase(0, std::min(length, buffer_.size()));
  return result;
}

bool RawConnection::closedByServer(std::chrono::seconds within) {
  if (!buffer_.empty()) return false;
  socket_.setReceiveTimeout(Poco::Timespan(static_cast<long>(within.count()), 0));
  char byte;
  try {
    return socket_.receiveBytes(&byte, 1) <= 0;
  } catch (const Poco::TimeoutException&) {
    return false;
  } catch (const Poco::Exception&) {
    return true;
  }
}

}  // namespace codepayload::server::testing
