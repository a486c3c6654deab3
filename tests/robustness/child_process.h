// A built executable run as a real child process (posix_spawn), so a test can
// kill -9 it at any moment: its stdout and stderr go to files, its environment
// is the test's own without any CODEPAYLOAD_* variable, plus what the test
// sets.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace codepayload::robustness {

// How a child ended.
struct ChildExit {
  bool killed = false;  // ended by a signal
  int code = -1;        // the exit status, or the signal number when killed

  bool operator==(const ChildExit&) const = default;
};

// The test's environment without CODEPAYLOAD_* variables, plus `extra` (which
// replaces a variable of the same name).
std::vector<std::string> childEnvironment(const std::map<std::string, std::string>& extra);

class ChildProcess {
 public:
  // Starts `executable` with `arguments`; stdout and stderr go to
  // `outputStem`.out and `outputStem`.err. Throws std::runtime_error when it
  // cannot be started.
  ChildProcess(const std::filesystem::path& executable, const std::vector<std::string>& arguments,
               const std::map<std::string, std::string>& environment, const std::filesystem::path& outputStem);
  // Kills (SIGKILL) and reaps the child if it is still running.
  ~ChildProcess();

  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running() const { return !ended_; }

  // Sends SIGKILL (if still running) and reaps the child.
  ChildExit killNine();
  // Sends SIGTERM and waits at most `grace`, then SIGKILL.
  ChildExit terminate(std::chrono::milliseconds grace = std::chrono::seconds(15));
  // Waits for the end.
  ChildExit wait();
  // Waits at most `timeout`; nullopt while it still runs.
  std::optional<ChildExit> waitFor(std::chrono::milliseconds timeout);

  std::string out() const;
  std::string err() const;

 private:
  std::optional<ChildExit> reap(bool block);

  pid_t pid_ = -1;
  bool ended_ = false;
  ChildExit exit_;
  std::filesystem::path outFile_;
  std::filesystem::path errFile_;
};

// Runs `executable` to its end (killed with -9 after `limit`) and returns
// how it ended with its output.
struct ChildRun {
  ChildExit exit;
  std::string out;
  std::string err;
};
ChildRun runChild(const std::filesystem::path& executable, const std::vector<std::string>& arguments,
                  const std::map<std::string, std::string>& environment, const std::filesystem::path& outputStem,
                  std::chrono::milliseconds limit = std::chrono::seconds(60));

}  // namespace codepayload::robustness
