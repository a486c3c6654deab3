#include "app/logging.h"

#include <Poco/AutoPtr.h>
#include <Poco/ConsoleChannel.h>
#include <Poco/Formatter.h>
#include <Poco/FormattingChannel.h>
#include <Poco/Logger.h>
#include <Poco/Message.h>
#include <Poco/PatternFormatter.h>

#include <iostream>
#include <string>

#include "common/json_escape.h"

namespace codepayload::app {

namespace {

constexpr const char* kDiagnosticsLogger = "codepayload.diagnostics";
constexpr const char* kEventsLogger = "codepayload.events";
constexpr const char* kRequestIdParameter = "requestId";

LogLevel levelOf(Poco::Message::Priority priority) {
  if (priority <= Poco::Message::PRIO_ERROR) return LogLevel::Error;
  if (priority == Poco::Message::PRIO_WARNING) return LogLevel::Warning;
  return LogLevel::Info;
}

Poco::Message::Priority priorityOf(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return Poco::Message::PRIO_ERROR;
    case LogLevel::Warning: return Poco::Message::PRIO_WARNING;
    case LogLevel::Info: break;
  }
  return Poco::Message::PRIO_INFORMATION;
}

// events(): a Poco message as formatEventLine's JSON line.
class EventFormatter final : public Poco::Formatter {
 public:
  explicit EventFormatter(std::string program) : program_(std::move(program)) {}

  void format(const Poco::Message& message, std::string& text) override {
    const auto time =
        std::chrono::system_clock::time_point(std::chrono::microseconds(message.getTime().epochMicroseconds()));
    const std::string& requestId = message.get(kRequestIdParameter, empty_);
    text = formatEventLine(program_, time, LogLine(levelOf(message.getPriority()), message.getText(), requestId));
    text.pop_back();  // the console channel ends the line itself
  }

 private:
  const std::string program_;
  const std::string empty_;
};

// Poco 1.11 takes Channel::Ptr and Formatter::Ptr (AutoPtr): a raw pointer
// passed there would be adopted without a reference of its own.
void attach(const char* loggerName, const Poco::Formatter::Ptr& formatter, const Poco::Channel::Ptr& console) {
  Poco::AutoPtr<Poco::FormattingChannel> channel(new Poco::FormattingChannel(formatter, console));
  Poco::Logger& logger = Poco::Logger::get(loggerName);
  logger.setChannel(channel);
  logger.setLevel(Poco::Message::PRIO_INFORMATION);
}

}  // namespace

void configureLogging(std::string_view program) {
  // "%%" keeps a '%' in a program name literal; the name is ours, but cheap to be exact.
  std::string name;
  for (const char c : program) name += (c == '%') ? std::string("%%") : std::string(1, c);
  const Poco::Channel::Ptr console(new Poco::ConsoleChannel(std::cerr));
  // Every other logger (a library's, e.g. "codepayload.lua") writes events'
  // JSON lines too: set on all loggers that exist, and inherited by later ones.
  const Poco::Formatter::Ptr eventFormatter(new EventFormatter(std::string(program)));
  const Poco::AutoPtr<Poco::FormattingChannel> everyLogger(new Poco::FormattingChannel(eventFormatter, console));
  Poco::Logger::setChannel("", everyLogger);
  Poco::Formatter::Ptr diagnosticsFormatter(new Poco::PatternFormatter(name + ": %t"));
  attach(kDiagnosticsLogger, diagnosticsFormatter, console);
  attach(kEventsLogger, eventFormatter, console);
}

Poco::Logger& diagnostics() { return Poco::Logger::get(kDiagnosticsLogger); }

Poco::Logger& events() { return Poco::Logger::get(kEventsLogger); }

std::string_view levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Warning: return "warning";
    case LogLevel::Info: break;
  }
  return "info";
}

void logEvent(const LogLine& line) {
  Poco::Logger& logger = events();
  const Poco::Message::Priority priority = priorityOf(line.level);
  if (!logger.is(priority)) return;
  Poco::Message message(logger.name(), std::string(line.message), priority);
  if (!line.requestId.empty()) message.set(kRequestIdParameter, std::string(line.requestId));
  logger.log(message);
}

std::string formatEventLine(std::string_view program, std::chrono::system_clock::time_point time, const LogLine& line) {
  std::string text = R"({"time":)";
  common::appendJsonUtcTime(text, time);
  text.append(R"(,"level":")");
  text.append(levelName(line.level));
  text.append(R"(","program":)");
  common::appendJsonString(text, program);
  text.append(R"(,"message":)");
  common::appendJsonString(text, line.message);
  if (!line.requestId.empty()) {
    text.append(R"(,"requestId":)");
    common::appendJsonString(text, line.requestId);
  }
  text.append("}\n");
  return text;
}

}  // namespace codepayload::app
