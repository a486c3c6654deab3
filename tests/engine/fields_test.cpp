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

std::string stemFault(const std::string& reason) {
  return rejected(R"J({"code":"Validation.Invalid.digitalLinkStem","path":"digitalLinkStem","args":[")J" + reason +
                  R"J("]})J");
}

TEST(DigitalLinkStem, Faults) {
  EXPECT_EQ(withStem("ftp://example.com"), stemFault("scheme"));
  EXPECT_EQ(withStem("example.com"), stemFault("scheme"));
  EXPECT_EQ(withStem("https://"), stemFault("host"));
  EXPECT_EQ(withStem("https://user@example.com"), stemFault("userinfo"));
  EXPECT_EQ(withStem("https://example.com/a?b=c"), stemFault("query"));
  EXPECT_EQ(withStem("https://example.com/a#top"), stemFault("fragment"));
  EXPECT_EQ(withStem("https://example.com//a"), stemFault("emptySegment"));
  EXPECT_EQ(withStem("https://example.com/a//"), stemFault("emptySegment"));
  EXPECT_EQ(withStem("https://example.com/a/../b"), stemFault("dotSegment"));
  EXPECT_EQ(withStem("https://example.com:port"), stemFault("port"));
  EXPECT_EQ(withStem("https://exa mple.com"), stemFault("host"));
  EXPECT_EQ(withStem("https://example.com/a b"), stemFault("syntax"));
  EXPECT_EQ(withStem(""), stemFault("scheme"));
}

TEST(DigitalLinkStem, AcceptedForms) {
  EXPECT_EQ(withStem("HTTP://Example.COM:8080/"),
            R"J({"codes":[{"reference":"0","barcodeText":"HTTP://Example.COM:8080/01/09506000134352",)J"
            R"J("hri":"(01)09506000134352"}],"failures":[]})J");
  EXPECT_EQ(withStem("https://[2001:db8::1]/dl"),
            R"J({"codes":[{"reference":"0","barcodeText":"https://[2001:db8::1]/dl/01/09506000134352",)J"
            R"J("hri":"(01)09506000134352"}],"failures":[]})J");
}

std::string linkTypeFault(const std::string& value, const std::string& reason) {
  return rejected(R"J({"code":"Validation.Invalid.linkType","path":"linkType","args":[")J" + value + R"J(",")J" +
                  reason + R"J("]})J");
}

TEST(LinkType, OfferedVocabularyTypesOrAbsoluteHttpUris) {
  EXPECT_EQ(
      withStem("https://example.com", R"J(,"linkType":"gs1:certificationInfo")J"),
      R"J({"codes":[{"reference":"0","barcodeText":"https://example.com/01/09506000134352?linkType=gs1:certificationInfo",)J"
      R"J("hri":"(01)09506000134352"}],"failures":[]})J");
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"gs1:handledBy")J"),
            linkTypeFault("gs1:handledBy", "notSelectable"));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"gs1:defaultLink")J"),
            linkTypeFault("gs1:defaultLink", "notSelectable"));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"gs1:defaultPageMulti")J"),
            linkTypeFault("gs1:defaultPageMulti", "notSelectable"));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"gs1:nonsense")J"),
            linkTypeFault("gs1:nonsense", "unknownLinkType"));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"/relative")J"),
            linkTypeFault("/relative", "notAbsoluteHttpUri"));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"mailto:a@b.c")J"),
            linkTypeFault("mailto:a@b.c", "notAbsoluteHttpUri"));
  EXPECT_EQ(withStem("https://example.com", R"J(,"linkType":"")J"), linkTypeFault("", "notAbsoluteHttpUri"));
}

TEST(Context, QueryLiteralCharactersOnlyAndOnlyWithAStem) {
  EXPECT_EQ(withStem("https://example.com", R"J(,"context":"a b")J"),
            rejected(R"J({"code":"Validation.Invalid.context","path":"context","args":["characters"]})J"));
  EXPECT_EQ(runDefinition(newestSnapshot(), "{" + kKey + R"J(,"extensionParameters":[],"context":"x"})J"),
            rejected(R"J({"code":"Validation.Invalid.context","path":"context","args":["requiresDigitalLinkStem"]})J"));
}

TEST(ExtensionParameters, KeyAndValueRules) {
  EXPECT_EQ(
      runDefinition(newestSnapshot(),
                    "{" + kKey +
                        R"J(,"digitalLinkStem":"https://example.com","extensionParameters":[)J"
                        R"J({"key":"context","value":"a"},{"key":"123","value":"a"},{"key":"","value":"a"},)J"
                        R"J({"key":"a&b","value":"a"},{"key":"ok","value":"a=b"},{"key":"ok","value":"c"}]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.extensionParameters.0","path":"extensionParameters.0","args":["context","reservedKey"]},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.1","path":"extensionParameters.1","args":["123","numericKey"]},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.2","path":"extensionParameters.2","args":["","emptyKey"]},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.3","path":"extensionParameters.3","args":["a&b","keyCharacters"]},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.4","path":"extensionParameters.4","args":["ok","valueCharacters"]},)J"
          R"J({"code":"Validation.Invalid.extensionParameters","path":"extensionParameters.5","args":["ok","duplicateKey"]})J"));
}

}  // namespace
}  // namespace codepayload::testing
