#include "common/utc_time.h"

#include <gtest/gtest.h>

namespace codepayload::common {
namespace {

TEST(UtcSecondsText, WritesRfc3339UtcToTheSecond) {
  EXPECT_EQ(utcSecondsText(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(utcSecondsText(1795478400), "2026-11-24T00:00:00Z");
  EXPECT_EQ(utcSecondsText(1709251199), "2024-02-29T23:59:59Z");
}

}  // namespace
}  // namespace codepayload::common
