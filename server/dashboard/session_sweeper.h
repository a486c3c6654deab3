// The dashboard's background sweep: every `interval` (5 minutes in the
// service) removes the sessions that ended (idle or past their absolute end)
// without their browser coming back, so the sessions table holds live
// sessions only. A failed sweep is logged once until one succeeds again.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "accounts/account_store.h"
#include "server/handlers/service_context.h"

namespace codepayload::server {

class SessionSweeper {
 public:
  // Starts the thread; its first sweep runs at once. `accounts` must outlive it.
  SessionSweeper(accounts::AccountStore& accounts, std::int64_t idleSeconds, std::chrono::milliseconds interval,
                 ServiceLogger log);
  ~SessionSweeper();  // stops the thread

  SessionSweeper(const SessionSweeper&) = delete;
  SessionSweeper& operator=(const SessionSweeper&) = delete;

  // Sessions removed so far.
  std::uint64_t removed() const;

 private:
  void run();

  accounts::AccountStore& accounts_;
  std::int64_t idleSeconds_;
  std::chrono::milliseconds interval_;
  ServiceLogger log_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::uint64_t removed_ = 0;
  std::thread thread_;
};

}  // namespace codepayload::server
