#include "common/utc_time.h"

#include <gtest/gtest.h>

namespace codepayload::common {
namespace {

TEST(UtcSecondsText, WritesRfc3339UtcToTheSecond) {
  EXPECT_EQ(utcSecondsText(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(utcSecondsText(1795478400), "2026-11-24T00:00:00Z");
  EXPECT_EQ(utcSecondsText(1709251199), "2024-02-29T23:59:59Z");
}

TEST(UtcTime, HttpDateIsTheImfFixdate) {
  EXPECT_EQ(httpDate(0), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(httpDate(1795478400), "Tue, 24 Nov 2026 00:00:00 GMT");
  EXPECT_EQ(httpDate(1709251199), "Thu, 29 Feb 2024 23:59:59 GMT");
  EXPECT_EQ(httpDate(1796428799), "Fri, 04 Dec 2026 23:59:59 GMT");
}

}  // namespace
}  // namespace codepayload::common
