#include "server/json_text.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::server {
namespace {

TEST(JsonText, EscapesQuotesBackslashesAndControlCharacters) {
  std::string out;
  appendJsonString(out, std::string("a\"b\\c\nd\te\r\x01\x1f", 12));
  EXPECT_EQ(out, R"("a\"b\\c\nd\te\r\u0001\u001f")");
}

TEST(JsonText, KeepsUtf8AsIs) {
  std::string out;
  appendJsonString(out, "Gr\xc3\xbc\xc3\x9f");
  EXPECT_EQ(out, "\"Gr\xc3\xbc\xc3\x9f\"");
}

TEST(ErrorEnvelope, WithPathAndWithout) {
  EXPECT_EQ(errorEnvelope("InvalidJson", std::string_view("codes.3.primaryKey"), "Expected \"key\"."),
            R"({"errors":[{"code":"InvalidJson","path":"codes.3.primaryKey","message":"Expected \"key\"."}]})");
  EXPECT_EQ(errorEnvelope("NotFound", std::nullopt, "No resource at this path."),
            R"({"errors":[{"code":"NotFound","path":null,"message":"No resource at this path."}]})");
}

}  // namespace
}  // namespace codepayload::server
