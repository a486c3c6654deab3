#include "server/rules_watcher.h"

#include <exception>
#include <string>

#include "db/rule_store.h"
#include "plugins/builtin_plugins.h"

namespace codepayload::server {

std::optional<FileIdentity> identifyFile(const std::filesystem::path& file) {
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino),
                      static_cast<std::int64_t>(status.st_size),
                      static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1000000000 + status.st_mtim.tv_nsec};
}

std::shared_ptr<const Snapshot> loadRulesSnapshot(const std::filesystem::path& rulesDatabase,
                                                  const std::filesystem::path& rulesDir) {
  return Snapshot::build(readRules(rulesDatabase), rulesDir, builtinPluginTables());
}

RulesWatcher::RulesWatcher(std::filesystem::path rulesDatabase, std::filesystem::path rulesDir, SnapshotHolder& holder,
                           std::optional<FileIdentity> loadedIdentity, std::chrono::milliseconds interval,
                           ServiceLogger log)
    : rulesDatabase_(std::move(rulesDatabase)),
      rulesDir_(std::move(rulesDir)),
      holder_(holder),
      interval_(interval),
      log_(std::move(log)),
      seenIdentity_(loadedIdentity) {
  thread_ = std::thread([this] { run(); });
}

RulesWatcher::~RulesWatcher() {
  {
    const std::lock_guard lock(stopMutex_);
    stopping_ = true;
  }
  stopSignal_.notify_all();
  thread_.join();
}

bool RulesWatcher::checkNow() {
  const std::lock_guard lock(checkMutex_);
  const std::optional<FileIdentity> identity = identifyFile(rulesDatabase_);
  if (!identity || identity == seenIdentity_) return false;
  seenIdentity_ = identity;
  const std::string previousRelease = holder_.current()->release().name;
  try {
    auto snapshot = loadRulesSnapshot(rulesDatabase_, rulesDir_);
    // The file may have been replaced again while it was read: then the next
    // check sees a new identity and loads once more.
    if (identifyFile(rulesDatabase_) != identity) seenIdentity_.reset();
    const std::string release = snapshot->release().name;
    holder_.replace(std::move(snapshot));
    reloads_.fetch_add(1, std::memory_order_relaxed);
    if (log_)
      log_("rules reloaded from " + rulesDatabase_.string() + ": release " + release + " (was " + previousRelease +
           ")");
    return true;
  } catch (const std::exception& error) {
    failedReloads_.fetch_add(1, std::memory_order_relaxed);
    if (log_) {
      log_({app::LogLevel::Error, "rules reload from " + rulesDatabase_.string() + " failed, keeping release " +
                                      previousRelease + ": " + error.what()});
    }
  }
  return false;
}

void RulesWatcher::run() {
  std::unique_lock lock(stopMutex_);
  while (!stopSignal_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();
    try {
      checkNow();
    } catch (...) {
      // checkNow reports its own failures; nothing may end the watcher.
    }
    lock.lock();
  }
}

}  // namespace codepayload::server
