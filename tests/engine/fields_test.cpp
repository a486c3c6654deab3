// digitalLinkStem, linkType, context and extensionParameters.
#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

const std::string kKey = R"J("primaryKey":{"key":"01","value":"09506000134352"},"ais":[])J";

std::string withStem(const std::string& stem, const std::string& more = "") {
  return runDefinition(newestSnapshot(),
                       "{" + kKey + ",\"extensionParameters\":[],\"digitalLinkStem\":\"" + stem + "\"" + more + "}");
}

std::string rejected(const std::string& errors) {
  return R"J({"codes":[],"failures":[{"reference":"0","errors":[)J" + errors + "]}]}";
}

std::string stemFault(const std::string& reason, const std::string& message) {
  return rejected(R"J({"code":"Validation.Invalid.digitalLinkStem","path":"digitalLinkStem","args":[")J" + reason +
                  R"J("],"message":")J" + message + R"J("})J");
}

TEST(DigitalLinkStem, Faults) {
  EXPECT_EQ(withStem("ftp://example.com"),
            stemFault("scheme", "The digitalLinkStem must start with http:// or https://."));
  EXPECT_EQ(withStem("example.com"), stemFault("scheme", "The digitalLinkStem must start with http:// or https://."));
  EXPECT_EQ(withStem("https://"),
            stemFault("host", "The digitalLinkStem must name a host, as in https://id.example.com."));
  EXPECT_EQ(withStem("https://user@example.com"),
            stemFault("userinfo", "The digitalLinkStem must not have a user name or password (user@host)."));
  EXPECT_EQ(withStem("https://example.com/a?b=c"),
            stemFault("query", "The digitalLinkStem must not have a query (?...)."));
  EXPECT_EQ(withStem("https://example.com/a#top"),
            stemFault("fragment", "The digitalLinkStem must not have a fragment (#...)."));
  EXPECT_EQ(withStem("https://example.com//a"),
            stemFault("emptySegment", "The digitalLinkStem must not have an empty path segment (//)."));
  EXPECT_EQ(withStem("https://example.com/a//"),
            stemFault("emptySegment", "The digitalLinkStem must not have an empty path segment (//)."));
  EXPECT_EQ(withStem("https://example.com/a/../b"),
            stemFault("dotSegment", "The digitalLinkStem must not have a '.' or '..' path segment."));
  EXPECT_EQ(withStem("https://example.com:port"),
            stemFault("port", "The digitalLinkStem's port must be a number from 1 to 65535."));
  EXPECT_EQ(withStem("https://exa mple.com"),
            stemFault("host", "The digitalLinkStem must name a host, as in https://id.example.com."));
  EXPECT_EQ(withStem("https://example.com/a b"),
            stemFault("syntax", "The digitalLinkStem has characters a URI does not allow."));
  EXPECT_EQ(withStem(""), stemFault("scheme", "The digitalLinkStem must start with http:// or https://."));
}

TEST(DigitalLinkStem, AcceptedForms) {
  EXPECT_EQ(withStem("HTTP://Example.COM:8080/"),
            R"J({"codes":[{"reference":"0","barcodeText":"HTTP://Example.COM:8080/01/09506000134352",)J"
            R"J("hri":"(01)09506000134352"}],"failures":[]})J");
  EXPECT_EQ(withStem("https://[2001:db8::1]/dl"),
            R"J({"codes":[{"reference":"0","barcodeText":"https://[2001:db8::1]/dl/01/09506000134352",)J"
            R"J("hri":"(01)09506000134352"}],"failures":[]})J");
}

std::string linkTypeFault(const std::string& value, const std::string& reason, const std::string& message) {
  return rejected(R"J({"code":"Validation.Invalid.linkType","path":"linkType","args":[")J" + value + R"J(",")J" +
                  reason + R"J("],"message":")J" + message + R"J("})J");
}

TEST(LinkType, OfferedVocabularyTypesOrAbsoluteHttpUris) {
  EXPECT_EQ(
      withStem("https://example.com", R"J(,"linkType":"gs1:certificationInfo")J"),
      R"J({"codes":[{"reference":"0","barcodeText":"https://example.com/01/09506000134352?linkType=gs1:certificationInfo",)J"
      R"J("hri":"(01)09506000134352"}],"failures":[]})J");
  EXPECT_EQ(
      withStem("https://example.com", R"J(,"linkType":"gs1:handledBy")J"),
      linkTypeFault("gs1:handledBy", "notSelectable",
                    "linkType 'gs1:handledBy' is a GS1 link type only a resolver sets; choose another link type."));
  EXPECT_EQ(
      withStem("https://example.com", R"J(,"linkType":"gs1:defaultLink")J"),
      linkTypeFault("gs1:defaultLink", "notSelectable",
                    "linkType 'gs1:defaultLink' is a GS1 link type only a resolver sets; choose another link type."));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"gs1:defaultPageMulti")J"),
            linkTypeFault(
                "gs1:defaultPageMulti", "notSelectable",
                "linkType 'gs1:defaultPageMulti' is a GS1 link type only a resolver sets; choose another link type."));
  EXPECT_EQ(
      withStem("https://example.com", R"J(,"linkType":"gs1:nonsense")J"),
      linkTypeFault("gs1:nonsense", "unknownLinkType", "linkType 'gs1:nonsense' is not in the GS1 Web Vocabulary."));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"/relative")J"),
            linkTypeFault("/relative", "notAbsoluteHttpUri",
                          "linkType '/relative' is neither a gs1: link type nor an absolute http or https URI."));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"mailto:a@b.c")J"),
            linkTypeFault("mailto:a@b.c", "notAbsoluteHttpUri",
                          "linkType 'mailto:a@b.c' is neither a gs1: link type nor an absolute http or https URI."));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"")J"),
            linkTypeFault("", "notAbsoluteHttpUri",
                          "linkType '' is neither a gs1: link type nor an absolute http or https URI."));
}

TEST(Context, QueryLiteralCharactersOnlyAndOnlyWithAStem) {
  EXPECT_EQ(
      withStem("https://example.com", R"J(,"context":"a b")J"),
      rejected(
          R"J({"code":"Validation.Invalid.context","path":"context","args":["characters"],"message":"context may only contain the characters A-Z a-z 0-9 - . _ ~ ! $ ' ( ) * , ; : @ / ?."})J"));
  EXPECT_EQ(
      runDefinition(newestSnapshot(), "{" + kKey + R"J(,"extensionParameters":[],"context":"x"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.context","path":"context","args":["requiresDigitalLinkStem"],"message":"context is part of a Digital Link URI: give a digitalLinkStem or leave context out."})J"));
}

TEST(ExtensionParameters, KeyAndValueRules) {
  EXPECT_EQ(
      runDefinition(newestSnapshot(),
                    "{" + kKey +
                        R"J(,"digitalLinkStem":"https://example.com","extensionParameters":[)J"
                        R"J({"key":"context","value":"a"},{"key":"123","value":"a"},{"key":"","value":"a"},)J"
                        R"J({"key":"a&b","value":"a"},{"key":"ok","value":"a=b"},{"key":"ok","value":"c"}]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.extensionParameters.0","path":"extensionParameters.0","args":["context","reservedKey"],"message":"'context' cannot be an extension parameter key: linkType and context have fields of their own."},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.1","path":"extensionParameters.1","args":["123","numericKey"],"message":"The extension parameter key '123' is all digits and would read as an AI; use a key with at least one non-digit."},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.2","path":"extensionParameters.2","args":["","emptyKey"],"message":"An extension parameter key must not be empty."},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.3","path":"extensionParameters.3","args":["a&b","keyCharacters"],"message":"The extension parameter key 'a&b' may only contain the characters A-Z a-z 0-9 - . _ ~ ! $ ' ( ) * , ; : @ / ?."},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.4","path":"extensionParameters.4","args":["ok","valueCharacters"],"message":"The value of extension parameter 'ok' may only contain the characters A-Z a-z 0-9 - . _ ~ ! $ ' ( ) * , ; : @ / ?."},)J"
          R"J({"code":"Validation.Invalid.extensionParameters","path":"extensionParameters.5","args":["ok","duplicateKey"],"message":"The extension parameter key 'ok' is given more than once."})J"));
}

}  // namespace
}  // namespace codepayload::testing
