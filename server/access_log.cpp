#include "server/access_log.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "server/json_text.h"

namespace codepayload::server {

namespace {

void appendTime(std::string& line, std::chrono::system_clock::time_point time) {
  const auto sinceEpoch = time.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(sinceEpoch);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch - seconds).count();
  const std::time_t asTimeT = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  gmtime_r(&asTimeT, &utc);
  char text[40];
  const int length = std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                                   utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                                   static_cast<int>(millis));
  line.push_back('"');
  line.append(text, static_cast<std::size_t>(length));
  line.push_back('"');
}

}  // namespace

void formatAccessLogLine(const AccessLogRecord& record, std::string& line) {
  line.clear();
  line.append(R"({"time":)");
  appendTime(line, record.time);
  line.append(R"(,"method":)");
  appendJsonString(line, record.method);
  line.append(R"(,"path":)");
  if (record.path.empty()) {
    line.append("null");
  } else {
    appendJsonString(line, record.path);
  }
  line.append(R"(,"status":)");
  line.append(std::to_string(record.status));
  line.append(R"(,"bytes":)");
  line.append(std::to_string(record.bytes));
  line.append(R"(,"durationUs":)");
  line.append(std::to_string(record.durationMicros));
  line.append(R"(,"client":)");
  appendJsonString(line, record.clientAddress);
  line.append(R"(,"clientId":)");
  if (record.clientId.empty()) {
    line.append("null");
  } else {
    appendJsonString(line, record.clientId);
  }
  if (record.codes) {
    line.append(R"(,"codes":)");
    line.append(std::to_string(*record.codes));
  }
  if (record.failures) {
    line.append(R"(,"failures":)");
    line.append(std::to_string(*record.failures));
  }
  line.append("}\n");
}

AccessLog::AccessLog(const std::string& destination) {
  if (destination == "off") return;
  if (destination == "-") {
    file_ = stdout;
    return;
  }
  file_ = std::fopen(destination.c_str(), "a");
  if (file_ == nullptr) {
    throw std::runtime_error("cannot open access log " + destination + ": " + std::strerror(errno));
  }
  ownsFile_ = true;
}

AccessLog::~AccessLog() {
  if (ownsFile_) std::fclose(file_);
}

void AccessLog::write(const AccessLogRecord& record) {
  if (file_ == nullptr) return;
  thread_local std::string line;
  formatAccessLogLine(record, line);
  const std::lock_guard lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

}  // namespace codepayload::server
