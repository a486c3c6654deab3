#include "server/dashboard/session_sweeper.h"

#include <exception>
#include <string>

#include "auth/unix_clock.h"

namespace codepayload::server {

SessionSweeper::SessionSweeper(accounts::AccountStore& accounts, std::int64_t idleSeconds,
                               std::chrono::milliseconds interval, ServiceLogger log)
    : accounts_(accounts), idleSeconds_(idleSeconds), interval_(interval), log_(std::move(log)) {
  thread_ = std::thread([this] { run(); });
}

SessionSweeper::~SessionSweeper() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::uint64_t SessionSweeper::removed() const {
  const std::lock_guard lock(mutex_);
  return removed_;
}

void SessionSweeper::run() {
  bool failing = false;
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    std::size_t removed = 0;
    try {
      removed = accounts_.removeEndedSessions(auth::systemUnixSeconds(), idleSeconds_);
      if (failing && log_) log_("dashboard session sweep works again");
      failing = false;
    } catch (const std::exception& error) {
      if (!failing && log_) {
        log_({app::LogLevel::Error,
              std::string("dashboard session sweep failed (retried every interval): ") + error.what()});
      }
      failing = true;
    }
    lock.lock();
    removed_ += removed;
    wake_.wait_for(lock, interval_, [this] { return stopping_; });
  }
}

}  // namespace codepayload::server
