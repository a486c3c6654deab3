// CA-* at the level of the Basic parser: which Authorization values yield
// which credentials, and why the others are refused.
#include "auth/basic_credentials.h"

#include <gtest/gtest.h>

#include <vector>

#include "auth/base64.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::basic;
using testing::basicRaw;

constexpr std::string_view kId = "svc_client_AbCdEfGhIjKlMnOpQrStUvWx";
constexpr std::string_view kSecret = "s3cr3t-Secret_value-0123456789abcdefghijklm";

BasicCredentialsError parse(std::vector<std::string> values, BasicCredentials& credentials) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return parseBasicCredentials(views, credentials);
}

struct Accepted {
  const char* name;
  std::string header;
  std::string id;
  std::string secret;
};

class BasicCredentialsAccepts : public ::testing::TestWithParam<Accepted> {};

TEST_P(BasicCredentialsAccepts, Header) {
  BasicCredentials credentials;
  ASSERT_EQ(parse({GetParam().header}, credentials), BasicCredentialsError::Ok);
  EXPECT_EQ(credentials.clientId, GetParam().id);
  EXPECT_EQ(credentials.clientSecret, GetParam().secret);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BasicCredentialsAccepts,
    ::testing::Values(
        Accepted{"plain", basic(kId, kSecret), std::string(kId), std::string(kSecret)},
        // CA-04: the scheme in any case.
        Accepted{"lowerScheme", "basic " + encodeBase64(std::string(kId) + ":" + std::string(kSecret)),
                 std::string(kId), std::string(kSecret)},
        Accepted{"upperScheme", "BASIC " + encodeBase64(std::string(kId) + ":" + std::string(kSecret)),
                 std::string(kId), std::string(kSecret)},
        Accepted{"surroundingWhitespaceAndSpaces", " \tBasic   " + encodeBase64("a:b") + " \t", "a", "b"},
        // CA-13: split at the first colon, in raw form and form-encoded.
        Accepted{"colonInSecretRaw", basicRaw(std::string(kId) + ":ab:cd"), std::string(kId), "ab:cd"},
        Accepted{"colonInSecretEncoded", basic(kId, "ab:cd"), std::string(kId), "ab:cd"},
        // CA-14: every byte of the secret %-encoded.
        Accepted{"percentEncodedSecret", basicRaw(std::string(kId) + ":%41%62%2b%2B"), std::string(kId), "Ab++"},
        // CA-15: '+' is a space, %2B a plus, %20 a space.
        Accepted{"plusIsSpace", basicRaw("id:a+b"), "id", "a b"},
        Accepted{"encodedPlus", basicRaw("id:a%2Bb"), "id", "a+b"},
        Accepted{"encodedSpace", basicRaw("id:a%20b"), "id", "a b"},
        // CA-17/CA-18: NUL and non-UTF-8 bytes are passed through (they never match).
        Accepted{"encodedNul", basic(kId, std::string(kSecret) + std::string("\0x", 2)), std::string(kId),
                 std::string(kSecret) + std::string("\0x", 2)},
        Accepted{"rawNonUtf8", basicRaw("svc_client_\xff\xfe:\xc3\x28"), "svc_client_\xff\xfe", "\xc3\x28"},
        Accepted{"longestAllowed", basic(std::string(128, 'i'), std::string(256, 's')), std::string(128, 'i'),
                 std::string(256, 's')}),
    [](const auto& row) { return std::string(row.param.name); });

struct Refused {
  const char* name;
  std::vector<std::string> headers;
  BasicCredentialsError error;
};

class BasicCredentialsRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(BasicCredentialsRefuses, Headers) {
  BasicCredentials credentials;
  credentials.clientId = "untouched";
  EXPECT_EQ(parse(GetParam().headers, credentials), GetParam().error);
  EXPECT_EQ(credentials.clientId, "untouched");
}

const std::string kValid = basic(kId, kSecret);

INSTANTIATE_TEST_SUITE_P(
    Cases, BasicCredentialsRefuses,
    ::testing::Values(
        Refused{"CA01_missing", {}, BasicCredentialsError::Missing},
        Refused{"CA02_bearer", {"Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln"}, BasicCredentialsError::NotBasic},
        Refused{"CA03_digest", {"Digest username=\"x\""}, BasicCredentialsError::NotBasic},
        Refused{"CA03_negotiate", {"Negotiate YIIB"}, BasicCredentialsError::NotBasic},
        Refused{"emptyValue", {""}, BasicCredentialsError::NotBasic},
        Refused{"tabAfterScheme", {"Basic\t" + encodeBase64("a:b")}, BasicCredentialsError::NotBasic},
        Refused{"CA05_schemeOnly", {"Basic"}, BasicCredentialsError::MissingToken},
        Refused{"CA05_schemeAndSpace", {"Basic "}, BasicCredentialsError::MissingToken},
        Refused{"CA06_bangs", {"Basic !!!!"}, BasicCredentialsError::BadBase64},
        Refused{"CA07_trailingGarbage", {kValid + "$$$garbage"}, BasicCredentialsError::BadBase64},
        Refused{"CA08_embeddedSpace",
                {"Basic " + encodeBase64("svc_client_x:abcdef").insert(4, " ")},
                BasicCredentialsError::BadBase64},
        Refused{"CA08_embeddedNewline",
                {"Basic " + encodeBase64("svc_client_x:abcdef").insert(4, "\n")},
                BasicCredentialsError::BadBase64},
        Refused{"CA09_unpadded", {"Basic YTpiYw"}, BasicCredentialsError::BadBase64},
        Refused{"CA09_urlAlphabet",
                {"Basic " + encodeBase64("a:\xfb\xff").replace(4, 1, "-")},
                BasicCredentialsError::BadBase64},
        Refused{"CA10_noColon", {basicRaw("svc_client_x")}, BasicCredentialsError::NoColon},
        Refused{"CA11_emptySecret", {basicRaw(std::string(kId) + ":")}, BasicCredentialsError::EmptyClientSecret},
        Refused{"CA12_emptyId", {basicRaw(":" + std::string(kSecret))}, BasicCredentialsError::EmptyClientId},
        Refused{"CA16_badEscapeInSecret", {basicRaw(std::string(kId) + ":%zz")}, BasicCredentialsError::BadEscape},
        Refused{"CA16_badEscapeInId", {basicRaw("%:x")}, BasicCredentialsError::BadEscape},
        Refused{"CA16_trailingPercent", {basicRaw(std::string(kId) + ":abc%")}, BasicCredentialsError::BadEscape},
        Refused{
            "CA17_dataAfterPadding", {"Basic " + encodeBase64("id:abcd") + "AAAA"}, BasicCredentialsError::BadBase64},
        Refused{
            "CA17_rawNulInBase64Text", {"Basic YT" + std::string(1, '\0') + "6Yg=="}, BasicCredentialsError::BadBase64},
        Refused{"CA20_longId", {basic(std::string(4096, 'i'), kSecret)}, BasicCredentialsError::ClientIdTooLong},
        Refused{"CA20_longSecret", {basic(kId, std::string(3072, 's'))}, BasicCredentialsError::ClientSecretTooLong},
        Refused{"CA21_twoHeaders", {basic("evil", "x"), kValid}, BasicCredentialsError::MultipleHeaders},
        Refused{"CA21_twoHeadersReversed", {kValid, basic("evil", "x")}, BasicCredentialsError::MultipleHeaders},
        Refused{"CA25_encodedWord",
                {"Basic =?UTF-8?B?" + encodeBase64(kValid.substr(6)) + "?="},
                BasicCredentialsError::BadBase64}),
    [](const auto& row) { return std::string(row.param.name); });

TEST(BasicCredentialsErrorName, NamesEveryError) {
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::Ok), "ok");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::Missing), "missing");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::MultipleHeaders), "multipleHeaders");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::NotBasic), "notBasic");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::MissingToken), "missingToken");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::BadBase64), "badBase64");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::NoColon), "noColon");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::BadEscape), "badEscape");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::EmptyClientId), "emptyClientId");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::EmptyClientSecret), "emptyClientSecret");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::ClientIdTooLong), "clientIdTooLong");
  EXPECT_EQ(basicCredentialsErrorName(BasicCredentialsError::ClientSecretTooLong), "clientSecretTooLong");
}

}  // namespace
}  // namespace codepayload::auth
