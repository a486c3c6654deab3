// One codepayload-server per data directory: the server holds an exclusive
// flock(2) on `server.lock` in its data directory for as long as it runs, with
// its pid written in the file. The OS drops the lock when the process ends, so
// a crash never leaves a stale lock behind; the file itself stays.
#pragma once

#include <filesystem>
#include <string_view>

namespace codepayload::server {

inline constexpr std::string_view kLockFile = "server.lock";

class DataDirectoryLock {
 public:
  // Takes the lock on `dataDir`/server.lock (created 0600 if missing) without
  // waiting and writes this process's pid into it. Throws std::runtime_error
  // "another codepayload-server (pid N) is using the data directory DIR" when
  // another holder has it (another process, or another service object in this
  // process), and a one-line message naming the file on any other failure.
  explicit DataDirectoryLock(const std::filesystem::path& dataDir);
  ~DataDirectoryLock();  // releases the lock

  DataDirectoryLock(const DataDirectoryLock&) = delete;
  DataDirectoryLock& operator=(const DataDirectoryLock&) = delete;

 private:
  int descriptor_ = -1;
};

}  // namespace codepayload::server
