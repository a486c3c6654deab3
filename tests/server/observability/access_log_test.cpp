#include "server/observability/access_log.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace codepayload::server {
namespace {

std::chrono::system_clock::time_point at(std::int64_t millisSinceEpoch) {
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(millisSinceEpoch));
}

TEST(AccessLogLine, CodesRequestWithClientAndCounts) {
  AccessLogRecord record;
  record.time = at(1769508000123);  // 2026-01-27T10:00:00.123Z
  record.requestId = "3f9c0b1e5d7a4c2e8b6f0a1d2c3e4f50";
  record.method = "POST";
  record.path = "/codes";
  record.status = 200;
  record.bytes = 1234;
  record.durationMicros = 567;
  record.clientAddress = "127.0.0.1:50000";
  record.clientId = "svc_client_abc";
  record.codes = 2;
  record.failures = 1;
  std::string line;
  formatAccessLogLine(record, line);
  EXPECT_EQ(line,
            R"({"time":"2026-01-27T10:00:00.123Z","requestId":"3f9c0b1e5d7a4c2e8b6f0a1d2c3e4f50","method":"POST",)"
            R"("path":"/codes","status":200,"bytes":1234,)"
            R"("durationUs":567,"client":"127.0.0.1:50000","clientId":"svc_client_abc","codes":2,"failures":1})"
            "\n");
}

TEST(AccessLogLine, AnonymousRequestHasNullClientAndNoCounts) {
  AccessLogRecord record;
  record.time = at(0);
  record.method = "GET\"";
  record.path = "";
  record.status = 404;
  record.bytes = 10;
  record.durationMicros = 3;
  record.clientAddress = "[::1]:1";
  std::string line;
  formatAccessLogLine(record, line);
  EXPECT_EQ(
      line,
      R"({"time":"1970-01-01T00:00:00.000Z","requestId":null,"method":"GET\"","path":null,"status":404,"bytes":10,)"
      R"("durationUs":3,"client":"[::1]:1","clientId":null})"
      "\n");
}

}  // namespace
}  // namespace codepayload::server
