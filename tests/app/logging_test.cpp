#include "app/logging.h"

#include <Poco/Logger.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace codepayload::app {
namespace {

std::chrono::system_clock::time_point at(std::int64_t millisSinceEpoch) {
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(millisSinceEpoch));
}

TEST(EventLine, IsOneJsonObjectWithTimeLevelProgramAndMessage) {
  EXPECT_EQ(formatEventLine("codepayload-server", at(1769508000123), LogLine("listening on https://127.0.0.1:8443")),
            R"({"time":"2026-01-27T10:00:00.123Z","level":"info","program":"codepayload-server",)"
            R"("message":"listening on https://127.0.0.1:8443"})"
            "\n");
}

TEST(EventLine, CarriesTheLevelAndTheRequestId) {
  EXPECT_EQ(formatEventLine("codepayload-server", at(0),
                            LogLine(LogLevel::Error, "request failed: boom", "3f9c0b1e5d7a4c2e8b6f0a1d2c3e4f50")),
            R"({"time":"1970-01-01T00:00:00.000Z","level":"error","program":"codepayload-server",)"
            R"("message":"request failed: boom","requestId":"3f9c0b1e5d7a4c2e8b6f0a1d2c3e4f50"})"
            "\n");
  EXPECT_EQ(formatEventLine("p", at(0), LogLine(LogLevel::Warning, "w")),
            R"({"time":"1970-01-01T00:00:00.000Z","level":"warning","program":"p","message":"w"})"
            "\n");
}

TEST(EventLine, EscapesWhatCouldBreakTheLine) {
  EXPECT_EQ(
      formatEventLine("p", at(0), LogLine("a \"quoted\"\nsecond line\\")),
      R"({"time":"1970-01-01T00:00:00.000Z","level":"info","program":"p","message":"a \"quoted\"\nsecond line\\"})"
      "\n");
}

TEST(EventLine, APlainStringIsAnInfoLineWithoutRequest) {
  const std::string text = "stopped";
  const LogLine line(text);
  EXPECT_EQ(line.level, LogLevel::Info);
  EXPECT_EQ(line.message, "stopped");
  EXPECT_TRUE(line.requestId.empty());
  EXPECT_EQ(static_cast<std::string_view>(line), "stopped");
}

TEST(EventLine, LevelNames) {
  EXPECT_EQ(levelName(LogLevel::Info), "info");
  EXPECT_EQ(levelName(LogLevel::Warning), "warning");
  EXPECT_EQ(levelName(LogLevel::Error), "error");
}

}  // namespace
}  // namespace codepayload::app
