#include "app/logging.h"

#include <Poco/AutoPtr.h>
#include <Poco/ConsoleChannel.h>
#include <Poco/FormattingChannel.h>
#include <Poco/Logger.h>
#include <Poco/PatternFormatter.h>

#include <iostream>
#include <string>

namespace codepayload::app {

namespace {

constexpr const char* kDiagnosticsLogger = "codepayload.diagnostics";
constexpr const char* kEventsLogger = "codepayload.events";

// Poco 1.11 takes Channel::Ptr and Formatter::Ptr (AutoPtr): a raw pointer
// passed there would be adopted without a reference of its own.
void attach(const char* loggerName, const std::string& pattern, const Poco::Channel::Ptr& console) {
  Poco::Formatter::Ptr formatter(new Poco::PatternFormatter(pattern));
  formatter->setProperty("times", "UTC");
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
  attach(kDiagnosticsLogger, name + ": %t", console);
  attach(kEventsLogger, "%Y-%m-%dT%H:%M:%SZ " + name + ": %t", console);
}

Poco::Logger& diagnostics() { return Poco::Logger::get(kDiagnosticsLogger); }

Poco::Logger& events() { return Poco::Logger::get(kEventsLogger); }

}  // namespace codepayload::app
