// The current version of an immutable object that request threads read while
// one thread replaces it now and then (the engine's rule snapshot, the
// registry view of the clients). Readers take a shared lock for as long as a
// reference count needs to go up, so they never wait for each other, and a
// reader that loses its core in that moment holds up only a replacement.
//
// Not std::atomic<std::shared_ptr>: libstdc++ 12 guards it with a spin lock
// (a lock bit and a pause loop, no sleep), so when the thread holding that bit
// is preempted, every reader on its core spins for a whole time slice, and
// with many more threads than cores such stalls add up on every request
// (docs/performance.md section 12).
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>

namespace codepayload::common {

template <typename T>
class Published {
 public:
  Published() = default;  // holds nothing until the first replace()
  explicit Published(std::shared_ptr<const T> initial) : current_(std::move(initial)) {}
  Published(const Published&) = delete;
  Published& operator=(const Published&) = delete;

  std::shared_ptr<const T> current() const {
    const std::shared_lock lock(mutex_);
    return current_;
  }

  // `next` takes the old version out and releases it after the lock is gone
  // (the last of its readers may still hold it).
  void replace(std::shared_ptr<const T> next) {
    const std::unique_lock lock(mutex_);
    current_.swap(next);
  }

 private:
  mutable std::shared_mutex mutex_;
  std::shared_ptr<const T> current_;
};

}  // namespace codepayload::common
