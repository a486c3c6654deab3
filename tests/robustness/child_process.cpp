#include "tests/robustness/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>

extern char** environ;

namespace codepayload::robustness {

namespace {

std::string fileText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ChildExit exitOf(int status) {
  if (WIFSIGNALED(status)) return ChildExit{true, WTERMSIG(status)};
  return ChildExit{false, WEXITSTATUS(status)};
}

}  // namespace

std::vector<std::string> childEnvironment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> environment;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    const std::string_view entry(*variable);
    const std::string name(entry.substr(0, entry.find('=')));
    if (!entry.starts_with("CODEPAYLOAD_") && !extra.contains(name)) environment.emplace_back(entry);
  }
  for (const auto& [name, value] : extra) environment.push_back(name + "=" + value);
  return environment;
}

ChildProcess::ChildProcess(const std::filesystem::path& executable, const std::vector<std::string>& arguments,
                           const std::map<std::string, std::string>& environment,
                           const std::filesystem::path& outputStem)
    : outFile_(outputStem.string() + ".out"), errFile_(outputStem.string() + ".err") {
  std::vector<std::string> argumentStrings{executable.string()};
  argumentStrings.insert(argumentStrings.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& argument : argumentStrings) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<std::string> environmentStrings = childEnvironment(environment);
  std::vector<char*> envp;
  for (std::string& variable : environmentStrings) envp.push_back(variable.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, outFile_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, errFile_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // Inherit nothing else: a pipe another thread has open for a child of its own
  // (e.g. runAdmin's stdout) would otherwise stay open in this child, and that
  // reader would wait for its end of file until this child exits.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  const int result = posix_spawn(&pid_, executable.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (result != 0) {
    throw std::runtime_error("cannot start " + executable.string() + ": " + std::strerror(result));
  }
}

ChildProcess::~ChildProcess() {
  if (!ended_) killNine();
}

std::optional<ChildExit> ChildProcess::reap(bool block) {
  if (ended_) return exit_;
  int status = 0;
  pid_t result;
  do {
    result = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (result < 0 && errno == EINTR);
  if (result == 0) return std::nullopt;
  if (result < 0) throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
  ended_ = true;
  exit_ = exitOf(status);
  return exit_;
}

ChildExit ChildProcess::killNine() {
  if (!ended_) ::kill(pid_, SIGKILL);
  return *reap(true);
}

ChildExit ChildProcess::terminate(std::chrono::milliseconds grace) {
  if (ended_) return exit_;
  ::kill(pid_, SIGTERM);
  if (const std::optional<ChildExit> ended = waitFor(grace)) return *ended;
  return killNine();
}

ChildExit ChildProcess::wait() { return *reap(true); }

std::optional<ChildExit> ChildProcess::waitFor(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (const std::optional<ChildExit> ended = reap(false)) return ended;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string ChildProcess::out() const { return fileText(outFile_); }

std::string ChildProcess::err() const { return fileText(errFile_); }

ChildRun runChild(const std::filesystem::path& executable, const std::vector<std::string>& arguments,
                  const std::map<std::string, std::string>& environment, const std::filesystem::path& outputStem,
                  std::chrono::milliseconds limit) {
  ChildProcess child(executable, arguments, environment, outputStem);
  std::optional<ChildExit> exit = child.waitFor(limit);
  if (!exit) exit = child.killNine();
  return ChildRun{*exit, child.out(), child.err()};
}

}  // namespace codepayload::robustness
