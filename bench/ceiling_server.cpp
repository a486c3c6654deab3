// codepayload_ceiling_server: the ceiling of the HTTP benchmarks. A minimal
// Poco HTTPServer that does what every request to codepayload-server must do
// and nothing else: accept TLS with the same context, read the whole request
// body (with Poco's own HTTP framing), and answer a fixed body of a given size. Every HTTP
// figure of bench/run.sh is reported as a ratio to this server, measured in
// the same run.
//
// It reads the same configuration as codepayload-server
// (config/codepayload.properties overridden by CODEPAYLOAD_* variables): the
// listen address, the thread pool, the timeouts and keep-alive settings, the
// body limit and the TLS certificate (configured, or the development pair in
// CODEPAYLOAD_DATA_DIR, which it reuses or creates exactly as the server does).
//
//   codepayload_ceiling_server --response-bytes N [--content-type TYPE] [--port-file FILE]
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
#include "common/atomic_file.h"
#include "server/development_certificate.h"
#include "server/server_config.h"
#include "server/server_transport.h"

namespace {

using codepayload::server::ServerConfig;

// Bodies up to this size leave in one write together with the headers.
constexpr std::size_t kCoalescedBodyLimit = 3 * 1024;

struct FixedAnswer {
  std::string body;
  std::string contentType;
  std::size_t maxBodyBytes = 0;
};

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
    response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_OK);
    response.setContentType(answer_.contentType);
    response.set("X-Content-Type-Options", "nosniff");
    response.setChunkedTransferEncoding(false);
    response.setContentLength64(static_cast<Poco::Int64>(answer_.body.size()));
    if (answer_.body.size() <= kCoalescedBodyLimit) {
      std::ostream& out = response.send();
      out.write(answer_.body.data(), static_cast<std::streamsize>(answer_.body.size()));
      out.flush();
    } else {
      response.sendBuffer(answer_.body.data(), answer_.body.size());
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
  if (!sized) throw std::invalid_argument("--response-bytes is required");
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
                 "usage: codepayload_ceiling_server --response-bytes N [--content-type TYPE] [--port-file FILE]\n",
                 error.what());
    return kExitUsage;
  }
  const FixedAnswer answer{jsonOfSize(options.responseBytes), options.contentType, config.maxBodyBytes};
  try {
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
    std::printf("codepayload_ceiling_server: listening on https://%s:%u, answering %zu bytes of %s\n",
                config.listen.host.c_str(), static_cast<unsigned>(port), answer.body.size(),
                answer.contentType.c_str());
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
