// Running one of the project's binaries in a test: in a folder of the test's,
// with the test's environment minus every CODEPAYLOAD_* variable (so that a
// developer's settings do not leak in), standard output and error kept.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tests/tools/test_files.h"

extern char** environ;

namespace codepayload::testing {

struct RunResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

// Runs `executable` with `arguments` in `workDir`, the environment plus
// `extra` ("NAME=value"), and `input` on standard input when given (else the
// test's own).
inline RunResult runExecutable(const std::filesystem::path& executable, std::vector<std::string> arguments,
                               const std::vector<std::string>& extra, const std::filesystem::path& workDir,
                               const std::optional<std::string>& input = std::nullopt) {
  arguments.insert(arguments.begin(), executable.string());
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    if (!std::string_view(*variable).starts_with("CODEPAYLOAD_")) environment.emplace_back(*variable);
  }
  environment.insert(environment.end(), extra.begin(), extra.end());
  std::vector<char*> envp;
  for (std::string& variable : environment) envp.push_back(variable.data());
  envp.push_back(nullptr);

  const std::filesystem::path inFile = workDir / ".stdin";
  const std::filesystem::path outFile = workDir / ".stdout";
  const std::filesystem::path errFile = workDir / ".stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, workDir.c_str());
  if (input) {
    writeFile(inFile, *input);
    posix_spawn_file_actions_addopen(&actions, 0, inFile.c_str(), O_RDONLY, 0);
  }
  posix_spawn_file_actions_addopen(&actions, 1, outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, executable.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn failed for " + executable.string());
  int status = 0;
  ::waitpid(pid, &status, 0);
  RunResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = readFile(outFile);
  result.err = readFile(errFile);
  std::filesystem::remove(outFile);
  std::filesystem::remove(errFile);
  if (input) std::filesystem::remove(inFile);
  return result;
}

}  // namespace codepayload::testing
