// Digital Link URIs: path, qualifier order, query order, encoding, HRI.
#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

std::string dl(const std::string& fields) {
  return runDefinition(newestSnapshot(), "{\"digitalLinkStem\":\"https://example.com\"," + fields + "}");
}

TEST(DigitalLink, QualifiersInGs1OrderThenDataAttributesThenLinkType) {
  EXPECT_EQ(dl(R"J("primaryKey":{"key":"01","value":"09506000134352"},"linkType":"gs1:pip",)J"
               R"J("ais":[{"key":"21","value":"12345"},{"key":"17","value":"261231"},{"key":"10","value":"ABC"}],)J"
               R"J("extensionParameters":[])J"),
            R"J({"codes":[{"reference":"0","barcodeText":)J"
            R"J("https://example.com/01/09506000134352/10/ABC/21/12345?17=261231&linkType=gs1:pip",)J"
            R"J("hri":"(01)09506000134352(10)ABC(21)12345(17)261231"}],"failures":[]})J");
}

// As GS1's Syntax Engine writes a query string: the data attributes of a
// pre-defined length (17, 3103) before the others (3922, 7003), each group in
// the order sent; the HRI follows the URI (D-Q1).
TEST(DigitalLink, DataAttributesOfAPredefinedLengthComeFirst) {
  EXPECT_EQ(dl(R"J("primaryKey":{"key":"01","value":"09506000134352"},)J"
               R"J("ais":[{"key":"3922","value":"0299"},{"key":"17","value":"261231"},)J"
               R"J({"key":"7003","value":"2612311200"},{"key":"3103","value":"000195"}],)J"
               R"J("extensionParameters":[{"key":"shelf","value":"b7"}],"context":"dpp")J"),
            R"J({"codes":[{"reference":"0","barcodeText":)J"
            R"J("https://example.com/01/09506000134352?17=261231&3103=000195&3922=0299&7003=2612311200&shelf=b7)J"
            R"J(&context=dpp","hri":"(01)09506000134352(17)261231(3103)000195(3922)0299(7003)2612311200"}],)J"
            R"J("failures":[]})J");
}

TEST(DigitalLink, SecondQualifierSequenceOfTheGtin) {
  EXPECT_EQ(dl(R"J("primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"235","value":"TPX1"}],)J"
               R"J("extensionParameters":[])J"),
            R"J({"codes":[{"reference":"0","barcodeText":"https://example.com/01/09506000134352/235/TPX1",)J"
            R"J("hri":"(01)09506000134352(235)TPX1"}],"failures":[]})J");
}

TEST(DigitalLink, QualifiersFromTwoSequencesAreRefused) {
  EXPECT_EQ(
      dl(R"J("primaryKey":{"key":"01","value":"09506000134352"},)J"
         R"J("ais":[{"key":"22","value":"A"},{"key":"235","value":"B"}],"extensionParameters":[])J"),
      R"J({"codes":[],"failures":[{"reference":"0","errors":[{"code":"Validation.Invalid.ais.qualifiers",)J"
      R"J("path":"ais","args":["01","22","235"],"message":"The key qualifiers 22, 235 of primary key 01 do not all come )J"
      R"J(from one of its qualifier sequences: (22, 10, 21) or (235)."}]}]})J");
}

TEST(DigitalLink, ValuesArePercentEncodedExceptUnreserved) {
  EXPECT_EQ(
      dl(R"J("primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"21","value":"A/B%C&D-e.f"}],)J"
         R"J("extensionParameters":[])J"),
      R"J({"codes":[{"reference":"0","barcodeText":"https://example.com/01/09506000134352/21/A%2FB%25C%26D-e.f",)J"
      R"J("hri":"(01)09506000134352(21)A/B%C&D-e.f"}],"failures":[]})J");
}

TEST(DigitalLink, StemTrailingSlashStrippedAndStemPathKept) {
  EXPECT_EQ(
      runDefinition(
          newestSnapshot(),
          R"J({"digitalLinkStem":"https://id.example.com/dl/","primaryKey":{"key":"00","value":"376104250021234569"},)J"
          R"J("ais":[],"extensionParameters":[]})J"),
      R"J({"codes":[{"reference":"0","barcodeText":"https://id.example.com/dl/00/376104250021234569",)J"
      R"J("hri":"(00)376104250021234569"}],"failures":[]})J");
}

TEST(DigitalLink, ExtensionParametersAndContextAfterDataAttributes) {
  EXPECT_EQ(dl(R"J("primaryKey":{"key":"01","value":"09506000134352"},"context":"dpp",)J"
               R"J("ais":[{"key":"3103","value":"000189"},{"key":"17","value":"261231"}],)J"
               R"J("extensionParameters":[{"key":"campaign","value":"spring-26"},{"key":"x1","value":"a/b:c"}])J"),
            R"J({"codes":[{"reference":"0","barcodeText":"https://example.com/01/09506000134352)J"
            R"J(?3103=000189&17=261231&campaign=spring-26&x1=a/b:c&context=dpp",)J"
            R"J("hri":"(01)09506000134352(3103)000189(17)261231"}],"failures":[]})J");
}

TEST(DigitalLink, GlnWithExtensionComponent) {
  EXPECT_EQ(dl(R"J("primaryKey":{"key":"414","value":"9506000134352"},"ais":[{"key":"254","value":"32a"}],)J"
               R"J("extensionParameters":[])J"),
            R"J({"codes":[{"reference":"0","barcodeText":"https://example.com/414/9506000134352/254/32a",)J"
            R"J("hri":"(414)9506000134352(254)32a"}],"failures":[]})J");
}

TEST(DigitalLink, AiThatIsNeitherQualifierNorDataAttribute) {
  EXPECT_EQ(
      dl(R"J("primaryKey":{"key":"00","value":"376104250021234569"},"ais":[{"key":"21","value":"S1"}],)J"
         R"J("extensionParameters":[])J"),
      R"J({"codes":[],"failures":[{"reference":"0","errors":[)J"
      R"J({"code":"Validation.Invalid.relations.21.requires","path":"ais.0","args":["01","03","8006"],"message":"AI 21 needs one of 01, 03 or 8006 in the same code."},)J"
      R"J({"code":"Validation.Invalid.ais.0.digitalLink","path":"ais.0","args":["21"],"message":"AI 21 has no place in a Digital Link URI: it is neither a key qualifier of the primary key nor a data attribute; leave it out, or leave out the digitalLinkStem to get an element string."}]}]})J");
}

TEST(DigitalLink, MadeToOrderGtinIsNotADigitalLinkPrimaryKey) {
  EXPECT_EQ(
      dl(R"J("primaryKey":{"key":"03","value":"09506000134352"},"ais":[],"extensionParameters":[])J"),
      R"J({"codes":[],"failures":[{"reference":"0","errors":[)J"
      R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["03","notPrimaryKey"],"message":"AI 03 is a primary key only in element strings: leave out the digitalLinkStem, or use a Digital Link primary key such as 01."}]}]})J");
}

TEST(DigitalLink, LinkTypeUriIsQueryEncoded) {
  EXPECT_EQ(dl(R"J("primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[],)J"
               R"J("linkType":"https://example.org/types?a=1&b=2")J"),
            R"J({"codes":[{"reference":"0","barcodeText":"https://example.com/01/09506000134352)J"
            R"J(?linkType=https://example.org/types?a%3D1%26b%3D2","hri":"(01)09506000134352"}],"failures":[]})J");
}

}  // namespace
}  // namespace codepayload::testing
