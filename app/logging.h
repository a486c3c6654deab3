// The one log path of every binary: Poco::Logger through one console channel
// on stderr, formatted by one PatternFormatter configuration made here.
//   diagnostics(): "<program>: <text>", for refusals at start, warnings and
//                  failures (what the tests and scripts read);
//   events():      "<UTC time, ISO 8601> <program>: <text>", for the
//                  operational events of a long-running server.
// The access log is not a log of this kind: it keeps its buffered writer
// (server/access_log.h).
#pragma once

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

}  // namespace codepayload::app
