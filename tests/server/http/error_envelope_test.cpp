#include "server/http/error_envelope.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::server {
namespace {

TEST(ErrorEnvelope, EscapesEveryString) {
  EXPECT_EQ(errorEnvelope("X\"", std::string_view("a\\b"), "line\n\x01"),
            R"({"errors":[{"code":"X\"","path":"a\\b","message":"line\n\u0001"}]})");
}

TEST(ErrorEnvelope, WithPathAndWithout) {
  EXPECT_EQ(errorEnvelope("InvalidJson", std::string_view("codes.3.primaryKey"), "Expected \"key\"."),
            R"({"errors":[{"code":"InvalidJson","path":"codes.3.primaryKey","message":"Expected \"key\"."}]})");
  EXPECT_EQ(errorEnvelope("NotFound", std::nullopt, "No resource at this path."),
            R"({"errors":[{"code":"NotFound","path":null,"message":"No resource at this path."}]})");
}

}  // namespace
}  // namespace codepayload::server
