#include "auth/unix_clock.h"

#include <chrono>

namespace codepayload::auth {

std::int64_t systemUnixSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace codepayload::auth
