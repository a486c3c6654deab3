// One JSON line per request. Only what is safe to keep: never a secret, a
// token, an Authorization value, a query string or a body.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "common/adaptive_mutex.h"

namespace codepayload::server {

struct AccessLogRecord {
  std::chrono::system_clock::time_point time;  // when the request arrived
  std::string_view requestId;                  // X-Request-Id; empty (logged as null): none
  std::string_view method;
  // The route the request matched ("/codes"); empty (logged as null) for an
  // unknown path, which is never logged: a caller may have put anything in it.
  std::string_view path;
  int status = 0;
  std::uint64_t bytes = 0;  // response body bytes
  std::int64_t durationMicros = 0;
  std::string_view clientAddress;
  std::string_view clientId;            // empty: not authenticated
  std::optional<std::size_t> codes;     // /codes: generated items
  std::optional<std::size_t> failures;  // /codes: rejected items
  // The connection ended before the whole answer went out (logged as
  // "undelivered":true; absent otherwise).
  bool undelivered = false;
};

// {"time":"2026-01-27T10:00:00.123Z","requestId":"3f9c...","method":"POST","path":"/codes",...}
void formatAccessLogLine(const AccessLogRecord& record, std::string& line);

// Request threads only append their line to a buffer in memory; a writer
// thread writes the buffer out every 100 ms, or at once when it passes 64 KiB.
// (A write and flush per request under a lock cost a third of a small
// request's throughput: docs/performance.md.) Lines are written whole and in
// the order the requests finished; the destructor writes what is left.
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

  // Writes out every line buffered so far (before returning).
  void flush();

 private:
  void writerLoop();
  void writeOut(std::string& lines);

  std::FILE* file_ = nullptr;
  bool ownsFile_ = false;
  // Every request thread takes it for a moment (D-T7).
  common::AdaptiveMutex pendingMutex_;
  std::string pending_;
  std::mutex wakeMutex_;  // guards full_ and stopping_, which wake the writer
  std::condition_variable wake_;
  bool full_ = false;
  bool stopping_ = false;
  std::mutex fileMutex_;  // one writer of the file at a time
  std::thread writer_;
};

}  // namespace codepayload::server
