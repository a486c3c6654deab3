// Hot reload of the rules: a thread checks every `interval` whether the rules
// database file was replaced or changed (inode, size or modification time),
// builds a new snapshot off the request path and swaps it in. A file that does
// not load is logged and the current snapshot stays; it is tried again only
// when the file changes again. Requests never wait for a reload.
#pragma once

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/snapshot.h"
#include "server/handlers/service_context.h"

namespace codepayload::server {

// What identifies one version of a file on disk.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t modifiedNanos = 0;

  bool operator==(const FileIdentity&) const = default;
};

// nullopt when the file does not exist or cannot be stat'ed.
std::optional<FileIdentity> identifyFile(const std::filesystem::path& file);

// Reads the rules database and builds a snapshot from it (throws on failure).
std::shared_ptr<const Snapshot> loadRulesSnapshot(const std::filesystem::path& rulesDatabase,
                                                  const std::filesystem::path& rulesDir);

class RulesWatcher {
 public:
  // `loadedIdentity`: the identity of the file the current snapshot came from.
  RulesWatcher(std::filesystem::path rulesDatabase, std::filesystem::path rulesDir, SnapshotHolder& holder,
               std::optional<FileIdentity> loadedIdentity, std::chrono::milliseconds interval, ServiceLogger log);
  ~RulesWatcher();  // stops and joins the thread

  RulesWatcher(const RulesWatcher&) = delete;
  RulesWatcher& operator=(const RulesWatcher&) = delete;

  // Checks once, now, on the calling thread (the thread calls this too).
  // Returns true when a new snapshot was swapped in.
  bool checkNow();

  // Reloads since start: snapshots swapped in, and files that did not load.
  struct Counts {
    std::uint64_t reloads = 0;
    std::uint64_t failedReloads = 0;
  };
  Counts counts() const {
    return {reloads_.load(std::memory_order_relaxed), failedReloads_.load(std::memory_order_relaxed)};
  }

 private:
  void run();

  const std::filesystem::path rulesDatabase_;
  const std::filesystem::path rulesDir_;
  SnapshotHolder& holder_;
  const std::chrono::milliseconds interval_;
  const ServiceLogger log_;

  std::mutex checkMutex_;  // one check at a time
  std::optional<FileIdentity> seenIdentity_;
  std::atomic<std::uint64_t> reloads_{0};
  std::atomic<std::uint64_t> failedReloads_{0};

  std::mutex stopMutex_;
  std::condition_variable stopSignal_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace codepayload::server
