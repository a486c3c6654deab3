// The one log path of every binary: Poco::Logger through one console channel
// on stderr, formatted here.
//   diagnostics(): "<program>: <text>", for refusals at start, warnings and
//                  failures of a command (what a person at a terminal, the
//                  tests and scripts read);
//   events():      the operational log of a long-running server, one JSON
//                  object a line (D-P13):
//                  {"time":"2026-01-27T10:00:00.123Z","level":"info",
//                   "program":"codepayload-server","message":"...",
//                   "requestId":"..."}  (requestId: lines about a request only).
//                  Every other Poco logger (a library's) writes these lines too.
// The access log is not a log of this kind: it keeps its buffered writer
// (server/observability/access_log.h).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace Poco {
class Logger;
}

namespace codepayload::app {

// Sets up both loggers for `program` (e.g. "codepayload-server"); call once,
// first thing in main().
void configureLogging(std::string_view program);

Poco::Logger& diagnostics();
Poco::Logger& events();

enum class LogLevel { Info, Warning, Error };

// One operational event: a message (one line, no secret), its level, and the
// id of the request it is about, if any. Plain text converts to an Info line,
// so a logger that takes a LogLine also takes a string.
struct LogLine {
  LogLine(const char* text) : message(text) {}
  LogLine(const std::string& text) : message(text) {}
  LogLine(std::string_view text) : message(text) {}
  LogLine(LogLevel lineLevel, std::string_view text, std::string_view request = {})
      : level(lineLevel), message(text), requestId(request) {}
  // A logger written for plain text gets the message.
  operator std::string_view() const { return message; }

  LogLevel level = LogLevel::Info;
  std::string_view message;
  std::string_view requestId;  // empty: not about one request
};

std::string_view levelName(LogLevel level);  // "info", "warning", "error"

// Writes `line` to events().
void logEvent(const LogLine& line);

// The JSON line (with its '\n') events() writes for `line` of `program` at `time`.
std::string formatEventLine(std::string_view program, std::chrono::system_clock::time_point time, const LogLine& line);

}  // namespace codepayload::app
