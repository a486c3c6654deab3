#include "common/utc_time.h"

#include <ctime>

namespace codepayload::common {

std::string utcSecondsText(std::int64_t unixSeconds) {
  const std::time_t time = static_cast<std::time_t>(unixSeconds);
  std::tm utc{};
  ::gmtime_r(&time, &utc);
  char text[32];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(text, length);
}

}  // namespace codepayload::common
