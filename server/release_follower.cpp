#include "server/release_follower.h"

#include <exception>
#include <fstream>
#include <utility>

#include "accounts/sha256_hex.h"
#include "common/atomic_file.h"
#include "common/file_bytes.h"

namespace codepayload::server {
ReleaseFollower::ReleaseFollower(std::unique_ptr<app::PublishedReleases> releases, std::filesystem::path rulesDatabase,
                                 std::filesystem::path rulesDir, ServiceLogger log)
    : releases_(std::move(releases)),
      rulesDatabase_(std::move(rulesDatabase)),
      rulesDir_(std::move(rulesDir)),
      log_(std::move(log)) {}

ReleaseFollower::~ReleaseFollower() {
  {
    const std::lock_guard lock(stopMutex_);
    stopping_ = true;
  }
  stopSignal_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ReleaseFollower::follow(std::chrono::milliseconds interval) {
  if (!thread_.joinable()) thread_ = std::thread([this, interval] { run(interval); });
}

bool ReleaseFollower::checkNow() {
  const std::lock_guard lock(checkMutex_);
  try {
    const std::optional<app::PublishedRelease> published = releases_->latest();
    bool installed = false;
    if (published && published->sha256 != localDigest() && published->sha256 != refusedDigest_) {
      installed = install(*published);
    }
    if (!lastFailure_.empty()) {
      lastFailure_.clear();
      if (log_) log_("the registry's published releases are readable again");
    }
    return installed;
  } catch (const std::exception& error) {
    reportFailure(std::string("cannot read the registry's published release, serving the rules database as it is: ") +
                  error.what());
  }
  return false;
}

bool ReleaseFollower::install(const app::PublishedRelease& published) {
  const std::string bytes = releases_->rulesDatabase(published.id);
  const std::string digest = accounts::sha256Hex(bytes);
  const std::string what =
      "published release " + published.release + " (publication " + std::to_string(published.id) + ")";
  if (digest != published.sha256) {
    refusedDigest_ = published.sha256;
    reportFailure(what + " is damaged: its rule database's SHA-256 is " + digest + ", not " + published.sha256);
    return false;
  }
  try {
    common::writeFileAtomically(rulesDatabase_, {}, [&](const std::filesystem::path& temporary) {
      {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) throw std::runtime_error("cannot write " + temporary.string());
      }
      loadRulesSnapshot(temporary, rulesDir_);  // throws when it does not load here
    });
  } catch (const std::exception& error) {
    refusedDigest_ = published.sha256;
    if (log_) {
      log_({app::LogLevel::Error,
            what + " does not load here, keeping the rules database " + rulesDatabase_.string() + ": " + error.what()});
    }
    return false;
  }
  digestedIdentity_ = identifyFile(rulesDatabase_);
  digest_ = digest;
  if (log_) log_("installed " + what + " as " + rulesDatabase_.string());
  return true;
}

const std::string& ReleaseFollower::localDigest() {
  const std::optional<FileIdentity> identity = identifyFile(rulesDatabase_);
  if (identity != digestedIdentity_) {
    digest_ = identity ? accounts::sha256Hex(common::readFileBytes(rulesDatabase_)) : std::string();
    digestedIdentity_ = identity;
  }
  return digest_;
}

void ReleaseFollower::reportFailure(const std::string& message) {
  if (message == lastFailure_) return;
  lastFailure_ = message;
  if (log_) log_({app::LogLevel::Error, message});
}

void ReleaseFollower::run(std::chrono::milliseconds interval) {
  std::unique_lock lock(stopMutex_);
  while (!stopSignal_.wait_for(lock, interval, [this] { return stopping_; })) {
    lock.unlock();
    checkNow();
    lock.lock();
  }
}

}  // namespace codepayload::server
