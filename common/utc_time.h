// Times as the JSON answers and the admin CLI's output write them.
#pragma once

#include <cstdint>
#include <string>

namespace codepayload::common {

// Unix seconds as RFC 3339 UTC to the second: 1795478400 -> "2026-11-24T00:00:00Z".
std::string utcSecondsText(std::int64_t unixSeconds);

}  // namespace codepayload::common
