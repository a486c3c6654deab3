// Time as the auth library sees it: whole seconds since the Unix epoch, from a
// replaceable source so tests can move time.
#pragma once

#include <cstdint>
#include <functional>

namespace codepayload::auth {

using UnixClock = std::function<std::int64_t()>;

// The system clock (CLOCK_REALTIME), in whole seconds.
std::int64_t systemUnixSeconds();

}  // namespace codepayload::auth
