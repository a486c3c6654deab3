#include "server/http/request_id.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace codepayload::server {
namespace {

TEST(RequestId, GeneratedIdsAre32HexDigitsAndDistinct) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = generateRequestId();
    ASSERT_EQ(id.size(), 32u) << id;
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    EXPECT_TRUE(acceptableRequestId(id)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(RequestId, AcceptsUsualProxyIds) {
  EXPECT_TRUE(acceptableRequestId("f47ac10b-58cc-4372-a567-0e02b2c3d479"));
  EXPECT_TRUE(acceptableRequestId("Root=1-5759e988-bd862e3fe1be46a994272793"));
  EXPECT_TRUE(acceptableRequestId("abc+/DEF=="));
  EXPECT_TRUE(acceptableRequestId("edge.1:req_42@lb"));
  EXPECT_TRUE(acceptableRequestId(std::string(kMaxRequestIdLength, 'a')));
}

TEST(RequestId, RefusesWhatCouldInjectOrBreakALine) {
  EXPECT_FALSE(acceptableRequestId(""));
  EXPECT_FALSE(acceptableRequestId(std::string(kMaxRequestIdLength + 1, 'a')));
  EXPECT_FALSE(acceptableRequestId("a b"));
  EXPECT_FALSE(acceptableRequestId("a\r\nSet-Cookie: x=1"));
  EXPECT_FALSE(acceptableRequestId("a\"b"));
  EXPECT_FALSE(acceptableRequestId("a\\b"));
  EXPECT_FALSE(acceptableRequestId("a,b"));
  EXPECT_FALSE(acceptableRequestId("a;b"));
  EXPECT_FALSE(acceptableRequestId("caf\xc3\xa9"));
  EXPECT_FALSE(acceptableRequestId(std::string("a\0b", 3)));
}

}  // namespace
}  // namespace codepayload::server
