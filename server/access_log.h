// One JSON line per request. Only what is safe to keep: never a secret, a
// token, an Authorization value, a query string or a body.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::server {

struct AccessLogRecord {
  std::chrono::system_clock::time_point time;  // when the request arrived
  std::string_view method;
  // The route the request matched ("/codes"); empty (logged as null) for an
  // unknown path, which is never logged: a caller may have put anything in it.
  std::string_view path;
  int status = 0;
  std::uint64_t bytes = 0;  // response body bytes
  std::int64_t durationMicros = 0;
  std::string_view clientAddress;
  std::string_view clientId;  // empty: not authenticated
  std::optional<std::size_t> codes;     // /codes: generated items
  std::optional<std::size_t> failures;  // /codes: rejected items
};

// {"time":"2026-01-27T10:00:00.123Z","method":"POST","path":"/codes",...}
void formatAccessLogLine(const AccessLogRecord& record, std::string& line);

class AccessLog {
 public:
  // "-": stdout; "off": nothing; otherwise a file opened for appending.
  // Throws std::runtime_error when the file cannot be opened.
  explicit AccessLog(const std::string& destination);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  void write(const AccessLogRecord& record);
  bool enabled() const { return file_ != nullptr; }

 private:
  std::FILE* file_ = nullptr;
  bool ownsFile_ = false;
  std::mutex mutex_;
};

}  // namespace codepayload::server
