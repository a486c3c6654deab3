#include "server/http/media_type.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace codepayload::server {
namespace {

TEST(JsonRequestType, AcceptsBothTypesCaseInsensitivelyWithUtf8Charset) {
  EXPECT_TRUE(isAcceptedJsonRequestType("application/vnd.codepayload.public.v1+json"));
  EXPECT_TRUE(isAcceptedJsonRequestType("application/json"));
  EXPECT_TRUE(isAcceptedJsonRequestType("Application/JSON"));
  EXPECT_TRUE(isAcceptedJsonRequestType("application/json; charset=utf-8"));
  EXPECT_TRUE(isAcceptedJsonRequestType("application/json;charset=\"UTF-8\""));
  EXPECT_TRUE(isAcceptedJsonRequestType("application/vnd.codepayload.public.v1+json; charset=UTF-8"));
  EXPECT_TRUE(isAcceptedJsonRequestType("application/json; foo=bar"));
}

TEST(JsonRequestType, RefusesOtherTypesAndCharsets) {
  EXPECT_FALSE(isAcceptedJsonRequestType(""));
  EXPECT_FALSE(isAcceptedJsonRequestType("text/plain"));
  EXPECT_FALSE(isAcceptedJsonRequestType("application/x-www-form-urlencoded"));
  EXPECT_FALSE(isAcceptedJsonRequestType("application/vnd.codepayload.public.v2+json"));
  EXPECT_FALSE(isAcceptedJsonRequestType("application/json; charset=iso-8859-1"));
  EXPECT_FALSE(isAcceptedJsonRequestType("application/json; charset=\"utf-8"));
  EXPECT_FALSE(isAcceptedJsonRequestType("application/jsonx"));
  EXPECT_FALSE(isAcceptedJsonRequestType("application/*"));
}

struct AcceptRow {
  std::optional<std::string> accept;
  std::optional<JsonMediaType> expected;
};

class AcceptNegotiation : public testing::TestWithParam<AcceptRow> {};

TEST_P(AcceptNegotiation, PicksTheExpectedType) {
  const AcceptRow& row = GetParam();
  std::optional<std::string_view> accept;
  if (row.accept) accept = *row.accept;
  EXPECT_EQ(negotiateJsonResponseType(accept), row.expected) << (row.accept ? *row.accept : "<absent>");
}

constexpr auto V = JsonMediaType::Versioned;
constexpr auto P = JsonMediaType::Plain;

INSTANTIATE_TEST_SUITE_P(
    Rows, AcceptNegotiation,
    testing::Values(
        AcceptRow{std::nullopt, V}, AcceptRow{"", V}, AcceptRow{"  ", V}, AcceptRow{"*/*", V},
        AcceptRow{"application/*", V}, AcceptRow{"application/json", P}, AcceptRow{"APPLICATION/JSON", P},
        AcceptRow{"application/vnd.codepayload.public.v1+json", V},
        AcceptRow{"application/json, application/vnd.codepayload.public.v1+json", V},
        AcceptRow{"application/vnd.codepayload.public.v1+json;q=0.5, application/json", P},
        AcceptRow{"application/json;q=0.9, */*;q=0.1", P}, AcceptRow{"*/*;q=0.1, application/json;q=0", V},
        AcceptRow{"application/json;q=0", std::nullopt}, AcceptRow{"*/*;q=0", std::nullopt},
        AcceptRow{"text/html", std::nullopt}, AcceptRow{"text/*, image/png", std::nullopt},
        AcceptRow{"text/html, application/json;q=0.2", P}, AcceptRow{"application/*;q=0, application/json", P},
        AcceptRow{"application/json; charset=utf-8", P}, AcceptRow{"application/json; charset=latin1", std::nullopt},
        AcceptRow{"application/json;version=2", std::nullopt}, AcceptRow{"application/json;q=1.5", std::nullopt},
        AcceptRow{"application/json;q=abc, */*;q=0.3", V}, AcceptRow{"application/json;q=0.001", P},
        AcceptRow{"application/json;q=0.5;ext=1", P}, AcceptRow{"*/json", std::nullopt},
        AcceptRow{"garbage", std::nullopt}, AcceptRow{"application/json;q=\"0.5", std::nullopt},
        AcceptRow{"application/vnd.codepayload.public.v2+json", std::nullopt}));

TEST(MediaTypeName, NamesBothTypes) {
  EXPECT_EQ(mediaTypeName(JsonMediaType::Versioned), "application/vnd.codepayload.public.v1+json");
  EXPECT_EQ(mediaTypeName(JsonMediaType::Plain), "application/json");
}

TEST(BareMediaType, DropsParametersAndWhitespace) {
  EXPECT_EQ(bareMediaType(" Application/JSON ; charset=x"), "Application/JSON");
  EXPECT_EQ(bareMediaType("application/x-www-form-urlencoded"), "application/x-www-form-urlencoded");
  EXPECT_EQ(bareMediaType("nonsense"), "");
  EXPECT_EQ(bareMediaType(""), "");
}

}  // namespace
}  // namespace codepayload::server
