// codepayload_ceiling_server: the ceiling of the HTTP benchmarks. A minimal
// Poco HTTPServer that does what every request to codepayload-server must do
// and nothing else: accept TLS with the same context, read the whole request
// body (with Poco's own HTTP framing), and answer a fixed body of a given size. Every HTTP
// figure of bench/run.sh is reported as a ratio to this server, measured in
// the same run.
//
// With --issue-tokens it answers each request with a freshly issued access
// token instead (auth::TokenIssuer with a new ES256 key, the server's default):
// the ceiling of POST /oauth/token, which cannot answer without signing
// (decision D-T4). The service's token path then costs, on top, what is its
// own: the form, client authentication, the registry, the throttle, usage.
//
// It reads the same configuration as codepayload-server
// (config/codepayload.properties overridden by CODEPAYLOAD_* variables): the
// listen address, the thread pool, the timeouts and keep-alive settings, the
// body limit and the TLS certificate (configured, or the development pair in
// CODEPAYLOAD_DATA_DIR, which it reuses or creates exactly as the server does).
//
//   codepayload_ceiling_server --response-bytes N [--content-type TYPE] [--port-file FILE]
//   codepayload_ceiling_server --issue-tokens [--port-file FILE]
// SIGTERM or SIGINT stops it.
#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/ThreadPool.h>
#include <signal.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/settings.h"
#include "auth/signing_keys.h"
#include "auth/token_issuer.h"
#include "common/atomic_file.h"
#include "server/config/server_config.h"
#include "server/server_transport.h"
#include "server/tls/development_certificate.h"

namespace {

using codepayload::server::ServerConfig;

// Bodies up to this size leave in one write together with the headers.
constexpr std::size_t kCoalescedBodyLimit = 3 * 1024;

struct FixedAnswer {
  std::string body;
  std::string contentType;
  std::size_t maxBodyBytes = 0;
  // Set with --issue-tokens: each answer is a new token response instead of `body`.
  const codepayload::auth::TokenIssuer* tokenIssuer = nullptr;
};

// The subject of every token the ceiling issues: an organization and a client
// of the shapes the service issues for, with the bench clients' scope.
const std::vector<std::string> kCeilingScopes{"write:codes"};
const codepayload::auth::TokenSubject kCeilingSubject{"org_0123456789abcdef", "svc_client_AbCdEfGhIjKlMnOpQrStUvWx",
                                                      kCeilingScopes};

// Reads the request body with Poco's own framing (a bare Poco server), then
// sends the fixed answer.
class FixedAnswerHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit FixedAnswerHandler(const FixedAnswer& answer) : answer_(answer) {}

  void handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) override {
    thread_local std::string body;
    body.clear();
    std::istream& in = request.stream();
    std::array<char, 16 * 1024> chunk;
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
      body.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
      if (body.size() > answer_.maxBodyBytes) {
        response.setKeepAlive(false);
        response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_BAD_REQUEST);
        response.setContentLength(0);
        response.send().flush();
        return;
      }
    }
    thread_local std::string issued;
    if (answer_.tokenIssuer != nullptr) {
      issued = codepayload::auth::TokenIssuer::responseJson(answer_.tokenIssuer->issue(kCeilingSubject));
    }
    const std::string& answerBody = answer_.tokenIssuer != nullptr ? issued : answer_.body;
    response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_OK);
    response.setContentType(answer_.contentType);
    response.set("X-Content-Type-Options", "nosniff");
    if (answer_.tokenIssuer != nullptr) response.set("Cache-Control", "no-store");  // RFC 6749 §5.1
    response.setChunkedTransferEncoding(false);
    response.setContentLength64(static_cast<Poco::Int64>(answerBody.size()));
    if (answerBody.size() <= kCoalescedBodyLimit) {
      std::ostream& out = response.send();
      out.write(answerBody.data(), static_cast<std::streamsize>(answerBody.size()));
      out.flush();
    } else {
      response.sendBuffer(answerBody.data(), answerBody.size());
    }
  }

 private:
  const FixedAnswer& answer_;
};

class FixedAnswerFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit FixedAnswerFactory(const FixedAnswer& answer) : answer_(answer) {}

  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new FixedAnswerHandler(answer_);
  }

 private:
  const FixedAnswer& answer_;
};

// A JSON object of exactly `size` bytes ({"padding":"xxx…"}); sizes below the
// empty object's 14 bytes are refused by the caller.
std::string jsonOfSize(std::size_t size) {
  constexpr std::string_view kOpen = R"({"padding":")";
  constexpr std::string_view kClose = R"("})";
  std::string body(kOpen);
  body.append(size - kOpen.size() - kClose.size(), 'x');
  body.append(kClose);
  return body;
}

constexpr std::size_t kSmallestAnswer = 14;

struct Options {
  std::size_t responseBytes = 0;
  bool issueTokens = false;
  std::string contentType = "application/vnd.codepayload.public.v1+json";
  std::optional<std::filesystem::path> portFile;
};

std::size_t parseSize(std::string_view text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument("--response-bytes takes a whole number of bytes, not '" + std::string(text) + "'");
  }
  if (value < kSmallestAnswer || value > 256u * 1024u * 1024u) {
    throw std::invalid_argument("--response-bytes must be between " + std::to_string(kSmallestAnswer) +
                                " and 268435456, not " + std::string(text));
  }
  return value;
}

Options parseOptions(const std::vector<std::string>& arguments) {
  Options options;
  bool sized = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& name = arguments[i];
    if (name == "--issue-tokens") {
      options.issueTokens = true;
      options.contentType = "application/json";
      continue;
    }
    if (i + 1 >= arguments.size()) throw std::invalid_argument(name + " needs a value");
    const std::string& value = arguments[++i];
    if (name == "--response-bytes") {
      options.responseBytes = parseSize(value);
      sized = true;
    } else if (name == "--content-type") {
      if (value.empty()) throw std::invalid_argument("--content-type must not be empty");
      options.contentType = value;
    } else if (name == "--port-file") {
      options.portFile = value;
    } else {
      throw std::invalid_argument("unknown option " + name);
    }
  }
  if (sized == options.issueTokens) throw std::invalid_argument("give either --response-bytes or --issue-tokens");
  return options;
}

// Blocks SIGTERM and SIGINT in this thread and every thread started after it,
// so that waitForTermination() receives them.
sigset_t blockTerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

void waitForTermination(const sigset_t& signals) {
  int received = 0;
  while (sigwait(&signals, &received) != 0) {
  }
}

// OpenSSL set up for Poco's secure sockets for as long as it lives; declared
// before the server objects so that they are gone before it ends.
class SslLibrary {
 public:
  SslLibrary() { Poco::Net::initializeSSL(); }
  ~SslLibrary() { Poco::Net::uninitializeSSL(); }
  SslLibrary(const SslLibrary&) = delete;
  SslLibrary& operator=(const SslLibrary&) = delete;
};

constexpr int kExitOk = 0;
constexpr int kExitUsage = 64;     // EX_USAGE
constexpr int kExitSoftware = 70;  // EX_SOFTWARE

int run(const std::vector<std::string>& arguments) {
  Options options;
  ServerConfig config;
  try {
    options = parseOptions(arguments);
    config = codepayload::server::serverConfigFrom(codepayload::app::loadProcessSettings());
  } catch (const std::exception& error) {
    std::fprintf(stderr,
                 "codepayload_ceiling_server: %s\n"
                 "usage: codepayload_ceiling_server --response-bytes N [--content-type TYPE] [--port-file FILE]\n"
                 "       codepayload_ceiling_server --issue-tokens [--port-file FILE]\n",
                 error.what());
    return kExitUsage;
  }
  try {
    const codepayload::auth::SigningKeySet tokenKeys(codepayload::auth::SigningKey::generate());
    const codepayload::auth::TokenIssuer tokenIssuer(tokenKeys, codepayload::auth::TokenSettings{});
    const FixedAnswer answer{options.issueTokens ? std::string() : jsonOfSize(options.responseBytes),
                             options.contentType, config.maxBodyBytes, options.issueTokens ? &tokenIssuer : nullptr};
    std::filesystem::path certificateFile = config.tlsCertificateFile;
    std::filesystem::path privateKeyFile = config.tlsPrivateKeyFile;
    if (certificateFile.empty()) {
      const auto development = codepayload::server::ensureDevelopmentCertificate(config.dataDir);
      certificateFile = development.certificateFile;
      privateKeyFile = development.privateKeyFile;
    }
    const sigset_t terminationSignals = blockTerminationSignals();
    const SslLibrary ssl;
    Poco::ThreadPool pool("ceiling", config.minThreads, config.maxThreads, 60);
    Poco::Net::SecureServerSocket socket(
        Poco::Net::SocketAddress(config.listen.host, config.listen.port), config.listenBacklog,
        codepayload::server::serverTlsContext(certificateFile, privateKeyFile, "codepayload-ceiling"));
    const std::uint16_t port = socket.address().port();
    Poco::Net::HTTPServer server(new FixedAnswerFactory(answer), pool, socket, codepayload::server::httpParams(config));
    server.start();
    if (options.portFile) {
      codepayload::common::writeFileAtomically(
          *options.portFile, std::to_string(port) + "\n",
          {.mode = 0600, .temporaryName = codepayload::common::TemporaryName::Fixed});
    }
    if (options.issueTokens) {
      std::printf("codepayload_ceiling_server: listening on https://%s:%u, answering new access tokens\n",
                  config.listen.host.c_str(), static_cast<unsigned>(port));
    } else {
      std::printf("codepayload_ceiling_server: listening on https://%s:%u, answering %zu bytes of %s\n",
                  config.listen.host.c_str(), static_cast<unsigned>(port), answer.body.size(),
                  answer.contentType.c_str());
    }
    std::fflush(stdout);
    waitForTermination(terminationSignals);
    server.stopAll(true);
    pool.joinAll();
  } catch (const Poco::Exception& error) {
    std::fprintf(stderr, "codepayload_ceiling_server: %s\n", error.displayText().c_str());
    return kExitSoftware;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "codepayload_ceiling_server: %s\n", error.what());
    return kExitSoftware;
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return run(std::vector<std::string>(argv + 1, argv + argc)); }
