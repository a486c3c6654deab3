// A mutex that spins a little before it sleeps (glibc's adaptive mutex), for
// the few locks every request thread takes for a moment on the request path.
// With many threads on few cores, a thread that meets a plain std::mutex held
// by the other core goes to sleep, and then waits its turn for a core again:
// milliseconds for a lock held for nanoseconds (docs/performance.md section 12).
// BasicLockable and Lockable: use it with std::lock_guard and std::unique_lock.
#pragma once

#include <pthread.h>

namespace codepayload::common {

class AdaptiveMutex {
 public:
  AdaptiveMutex() = default;
  ~AdaptiveMutex() { pthread_mutex_destroy(&mutex_); }
  AdaptiveMutex(const AdaptiveMutex&) = delete;
  AdaptiveMutex& operator=(const AdaptiveMutex&) = delete;

  void lock() noexcept { pthread_mutex_lock(&mutex_); }
  bool try_lock() noexcept { return pthread_mutex_trylock(&mutex_) == 0; }
  void unlock() noexcept { pthread_mutex_unlock(&mutex_); }

 private:
  pthread_mutex_t mutex_ = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
};

}  // namespace codepayload::common
