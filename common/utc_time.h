// UTC dates and times as the project writes them: the JSON answers, the admin
// CLI's output, the log lines, the usage days, the migrations' and the
// certificate check's stamps, HTTP's Date field. One writer, by calendar
// arithmetic: no gmtime_r, whose time zone lock every request thread writing
// a log line queued on (docs/performance.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace codepayload::common {

// Appends the day as "2026-11-24".
void appendUtcDate(std::string& out, std::chrono::sys_days day);

// Appends `time` as RFC 3339 UTC to the millisecond: "2026-11-24T04:04:19.529Z".
void appendUtcMillisText(std::string& out, std::chrono::system_clock::time_point time);

// Unix seconds as RFC 3339 UTC to the second: 1795478400 -> "2026-11-24T00:00:00Z".
std::string utcSecondsText(std::int64_t unixSeconds);

// Unix seconds as HTTP's IMF-fixdate (RFC 9110 §5.6.7):
// 1795478400 -> "Tue, 24 Nov 2026 00:00:00 GMT".
std::string httpDate(std::int64_t unixSeconds);

}  // namespace codepayload::common
