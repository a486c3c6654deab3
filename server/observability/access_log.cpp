#include "server/observability/access_log.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/json_escape.h"

namespace codepayload::server {

namespace {

// An empty value (no request id, an unknown path, no client) is written as null.
void appendStringOrNull(std::string& line, std::string_view value) {
  if (value.empty()) {
    line.append("null");
  } else {
    common::appendJsonString(line, value);
  }
}

}  // namespace

void formatAccessLogLine(const AccessLogRecord& record, std::string& line) {
  line.clear();
  line.append(R"({"time":)");
  common::appendJsonUtcTime(line, record.time);
  line.append(R"(,"requestId":)");
  appendStringOrNull(line, record.requestId);
  line.append(R"(,"method":)");
  common::appendJsonString(line, record.method);
  line.append(R"(,"path":)");
  appendStringOrNull(line, record.path);
  line.append(R"(,"status":)");
  line.append(std::to_string(record.status));
  line.append(R"(,"bytes":)");
  line.append(std::to_string(record.bytes));
  line.append(R"(,"durationUs":)");
  line.append(std::to_string(record.durationMicros));
  line.append(R"(,"client":)");
  common::appendJsonString(line, record.clientAddress);
  line.append(R"(,"clientId":)");
  appendStringOrNull(line, record.clientId);
  if (record.codes) {
    line.append(R"(,"codes":)");
    line.append(std::to_string(*record.codes));
  }
  if (record.failures) {
    line.append(R"(,"failures":)");
    line.append(std::to_string(*record.failures));
  }
  if (record.undelivered) line.append(R"(,"undelivered":true)");
  line.append("}\n");
}

AccessLog::AccessLog(const std::string& destination) {
  if (destination == "off") return;
  if (destination == "-") file_ = stdout;
  if (file_ == nullptr) {
    file_ = std::fopen(destination.c_str(), "a");
    if (file_ == nullptr) {
      throw std::runtime_error("cannot open access log " + destination + ": " + std::strerror(errno));
    }
    ownsFile_ = true;
  }
  writer_ = std::thread(&AccessLog::writerLoop, this);
}

namespace {

constexpr std::size_t kWriteAtOnceBytes = 64 * 1024;
constexpr std::chrono::milliseconds kWriteInterval{100};

}  // namespace

AccessLog::~AccessLog() {
  if (writer_.joinable()) {
    {
      const std::lock_guard lock(wakeMutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    writer_.join();
  }
  flush();
  if (ownsFile_) std::fclose(file_);
}

void AccessLog::write(const AccessLogRecord& record) {
  if (file_ == nullptr) return;
  thread_local std::string line;
  formatAccessLogLine(record, line);
  bool filled = false;
  {
    const std::lock_guard lock(pendingMutex_);
    filled = pending_.size() < kWriteAtOnceBytes && pending_.size() + line.size() >= kWriteAtOnceBytes;
    pending_.append(line);
  }
  // Only the line that fills the buffer wakes the writer.
  if (filled) {
    {
      const std::lock_guard lock(wakeMutex_);
      full_ = true;
    }
    wake_.notify_one();
  }
}

void AccessLog::flush() {
  if (file_ == nullptr) return;
  std::string lines;
  {
    const std::lock_guard lock(pendingMutex_);
    lines.swap(pending_);
  }
  writeOut(lines);
}

void AccessLog::writeOut(std::string& lines) {
  const std::lock_guard lock(fileMutex_);
  if (lines.empty()) return;
  std::fwrite(lines.data(), 1, lines.size(), file_);
  std::fflush(file_);
  lines.clear();
}

void AccessLog::writerLoop() {
  std::string lines;
  std::unique_lock wakeLock(wakeMutex_);
  while (!stopping_) {
    wake_.wait_for(wakeLock, kWriteInterval, [this] { return stopping_ || full_; });
    full_ = false;
    wakeLock.unlock();
    {
      const std::lock_guard lock(pendingMutex_);
      lines.swap(pending_);
    }
    writeOut(lines);
    wakeLock.lock();
  }
}

}  // namespace codepayload::server
