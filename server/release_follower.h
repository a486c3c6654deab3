// An instance of a shared registry serves the dictionary release published
// there (codepayload-import --publish, app/published_releases.h). A thread
// asks the registry every `interval` which publication is in force; when its
// SHA-256 is not the rule database's, it fetches the file, checks its digest
// and that a snapshot builds from it here (a release that needs a linter this
// instance lacks is refused, logged once, and the current one stays), and puts
// it in the rule database's place. The rules watcher then loads it as any new
// file: an instance swaps whole snapshots and never serves two releases at
// once. A registry out of reach is logged once, and once again when it is back.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/published_releases.h"
#include "server/handlers/service_context.h"
#include "server/rules_watcher.h"

namespace codepayload::server {

class ReleaseFollower {
 public:
  ReleaseFollower(std::unique_ptr<app::PublishedReleases> releases, std::filesystem::path rulesDatabase,
                  std::filesystem::path rulesDir, ServiceLogger log);
  ~ReleaseFollower();  // stops and joins the thread

  ReleaseFollower(const ReleaseFollower&) = delete;
  ReleaseFollower& operator=(const ReleaseFollower&) = delete;

  // Checks once, now, on the calling thread. Returns true when it put a
  // published release in the rule database's place. Never throws.
  bool checkNow();

  // Starts the thread that checks every `interval` (once).
  void follow(std::chrono::milliseconds interval);

 private:
  bool install(const app::PublishedRelease& published);
  // The SHA-256 of the rule database as it is now (computed again only when
  // the file changed), empty when there is none.
  const std::string& localDigest();
  void reportFailure(const std::string& message);
  void run(std::chrono::milliseconds interval);

  const std::unique_ptr<app::PublishedReleases> releases_;
  const std::filesystem::path rulesDatabase_;
  const std::filesystem::path rulesDir_;
  const ServiceLogger log_;

  std::mutex checkMutex_;  // one check at a time
  std::optional<FileIdentity> digestedIdentity_;
  std::string digest_;
  std::string refusedDigest_;  // a publication that did not load here: not fetched again
  std::string lastFailure_;    // logged once until a check succeeds

  std::mutex stopMutex_;
  std::condition_variable stopSignal_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace codepayload::server
