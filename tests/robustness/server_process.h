// The built codepayload-server executable as a child process on 127.0.0.1,
// port 0, over a given data directory: started, found through
// <data dir>/server.port, killed with -9 or stopped with SIGTERM, its resident
// memory read from /proc.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "tests/robustness/child_process.h"
#include "tests/robustness/tls_connection.h"

namespace codepayload::robustness {

// The environment ServerProcess starts the server with (see below).
std::map<std::string, std::string> serverEnvironment(const std::filesystem::path& dataDir,
                                                     const std::map<std::string, std::string>& settings = {});

class ServerProcess {
 public:
  // Starts the server with CODEPAYLOAD_DATA_DIR=`dataDir`, CODEPAYLOAD_LISTEN=
  // 127.0.0.1:0, the access log off, a 100 ms reload interval, plus
  // `settings` (environment variable -> value, overriding those and the
  // test's own). Its output
  // goes to `dataDir`/../server-<n>.out/.err. Returns once it answers
  // GET /healthz; throws std::runtime_error when it does not within 30 s.
  explicit ServerProcess(const std::filesystem::path& dataDir, const std::map<std::string, std::string>& settings = {});
  ~ServerProcess();  // kill -9 if still running

  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const ServiceEndpoint& endpoint() const { return endpoint_; }
  ChildProcess& process() { return *process_; }

  // Resident set size (VmRSS) in bytes, from /proc/<pid>/status.
  std::size_t residentBytes() const;
  // Its peak since the process started (VmHWM), in bytes.
  std::size_t peakResidentBytes() const;

 private:
  std::unique_ptr<ChildProcess> process_;
  ServiceEndpoint endpoint_;
};

// GET /healthz; the body, or "" when there was no 200 answer.
std::string healthBody(const ServiceEndpoint& endpoint);

}  // namespace codepayload::robustness
