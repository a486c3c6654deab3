#include "tests/robustness/server_process.h"
#include "tests/server/support/service_harness.h"

#include <Poco/Exception.h>

#include <atomic>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace codepayload::robustness {

namespace {

std::atomic<int> startCounter{0};

// A "Name:   12345 kB" line of /proc/<pid>/status, in bytes.
std::size_t statusBytes(int pid, std::string_view name) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with(name) && line.size() > name.size() && line[name.size()] == ':') {
      return std::stoul(line.substr(name.size() + 1)) * 1024;
    }
  }
  throw std::runtime_error("no " + std::string(name) + " for process " + std::to_string(pid));
}

}  // namespace

std::string healthBody(const ServiceEndpoint& endpoint) {
  try {
    const HttpResult result = exchange(endpoint, HttpCall{"GET", "/healthz", {}, ""});
    return result.status == 200 ? result.body : std::string();
  } catch (const Poco::Exception&) {
    return {};
  }
}

std::map<std::string, std::string> serverEnvironment(const std::filesystem::path& dataDir,
                                                     const std::map<std::string, std::string>& settings) {
  std::map<std::string, std::string> environment{{"CODEPAYLOAD_DATA_DIR", dataDir.string()},
                                                 {"CODEPAYLOAD_LISTEN", "127.0.0.1:0"},
                                                 {"CODEPAYLOAD_ACCESS_LOG", "off"},
                                                 {"CODEPAYLOAD_RELOAD_INTERVAL_MS", "100"}};
  for (const auto& [name, value] : settings) environment[name] = value;
  return environment;
}

ServerProcess::ServerProcess(const std::filesystem::path& dataDir, const std::map<std::string, std::string>& settings) {
  const std::filesystem::path portFile = dataDir / "server.port";
  std::filesystem::remove(portFile);  // a kill -9 leaves the previous one
  const std::map<std::string, std::string> environment = serverEnvironment(dataDir, settings);
  const std::filesystem::path outputStem = dataDir.parent_path() / ("server-" + std::to_string(startCounter++));
  process_ = std::make_unique<ChildProcess>(CODEPAYLOAD_SERVER_EXECUTABLE, std::vector<std::string>{}, environment,
                                            outputStem);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int port = 0;
  while (port == 0) {
    if (!process_->running() || process_->waitFor(std::chrono::milliseconds(0))) {
      throw std::runtime_error("codepayload-server ended during startup: " + process_->err());
    }
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("codepayload-server wrote no port file within 30 s: " + process_->err());
    }
    std::ifstream(portFile) >> port;
    if (port == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  endpoint_ =
      ServiceEndpoint{static_cast<std::uint16_t>(port), trustingContext((dataDir / "dev-tls-cert.pem").string())};
  while (healthBody(endpoint_).empty()) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("codepayload-server does not answer /healthz: " + process_->err());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

ServerProcess::~ServerProcess() {
  server::testing::recordServerLogs("stdout and stderr of codepayload-server " + std::to_string(process_->pid()),
                                    process_->out() + process_->err());
}

std::size_t ServerProcess::residentBytes() const { return statusBytes(process_->pid(), "VmRSS"); }

std::size_t ServerProcess::peakResidentBytes() const { return statusBytes(process_->pid(), "VmHWM"); }

}  // namespace codepayload::robustness
