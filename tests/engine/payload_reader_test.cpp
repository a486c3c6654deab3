// engine/payload_reader.h: each form read into its fields with their places
// in the text, and each way a text is none of them, with where reading
// stopped.
#include "engine/payload_reader.h"

#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

ReadPayload read(std::string_view text) {
  ReadFault fault;
  std::optional<ReadPayload> payload = readPayload(*newestSnapshot(), text, fault);
  EXPECT_TRUE(payload.has_value()) << text << ": fault " << static_cast<int>(fault.kind) << " at " << fault.offset
                                   << " (" << fault.detail << ")";
  return payload ? std::move(*payload) : ReadPayload{};
}

ReadFault faultOf(std::string_view text) {
  ReadFault fault;
  EXPECT_FALSE(readPayload(*newestSnapshot(), text, fault).has_value()) << text;
  return fault;
}

using Kind = ReadFault::Kind;

TEST(PayloadReader, ADigitalLinkWithQualifiersDataAttributesAndParameters) {
  const std::string text =
      "https://id.example.com/shop/01/09506000134352/10/AB%2FC/21/12345?17=261231&3103=000195&linkType=gs1%3Apip"
      "&context=dpp&shelf=b7#top";
  const ReadPayload payload = read(text);
  EXPECT_EQ(payload.form, PayloadForm::DigitalLink);
  EXPECT_EQ(payload.stem, "https://id.example.com/shop");
  EXPECT_EQ(payload.pathAis, 3u);
  EXPECT_EQ(payload.ais, (std::vector<ReadField>{{"01", "09506000134352", 31, 14},
                                                 {"10", "AB/C", 49, 6},
                                                 {"21", "12345", 59, 5},
                                                 {"17", "261231", 68, 6},
                                                 {"3103", "000195", 80, 6}}));
  EXPECT_EQ(payload.linkType, (ReadField{"linkType", "gs1:pip", 96, 9}));
  EXPECT_EQ(payload.context, (ReadField{"context", "dpp", 114, 3}));
  EXPECT_EQ(payload.extensionParameters, (std::vector<ReadField>{{"shelf", "b7", 124, 2}}));
  EXPECT_EQ(text.substr(124, 2), "b7");
  EXPECT_EQ(payload.symbologyIdentifier, "");
}

TEST(PayloadReader, TheRightmostPrimaryKeyEndsTheStem) {
  // As GS1's tools read it: an AI-like pair in the stem is the stem's.
  const ReadPayload payload = read("https://a.example/00/faux/00/006141411234567890");
  EXPECT_EQ(payload.stem, "https://a.example/00/faux");
  EXPECT_EQ(payload.ais, (std::vector<ReadField>{{"00", "006141411234567890", 29, 18}}));
  EXPECT_EQ(read("HTTPS://A.EXAMPLE/01/09506000134352").stem, "HTTPS://A.EXAMPLE");
  EXPECT_EQ(read("httpS://a.example/01/09506000134352").stem, "httpS://a.example");
}

TEST(PayloadReader, AQueryPlusIsASpaceAndAPathPlusIsAPlus) {
  const ReadPayload payload = read("https://a.example/01/09506000134352/21/A+B?10=C+D");
  EXPECT_EQ(payload.ais[1].value, "A+B");
  EXPECT_EQ(payload.ais[2].value, "C D");
}

TEST(PayloadReader, ABracketedElementStringWithEscapedParentheses) {
  const ReadPayload payload = read("(01)09506000134352(10)AB^040C^041(21)X");
  EXPECT_EQ(payload.form, PayloadForm::BracketedElementString);
  EXPECT_EQ(payload.ais,
            (std::vector<ReadField>{{"01", "09506000134352", 4, 14}, {"10", "AB(C)", 22, 11}, {"21", "X", 37, 1}}));
}

TEST(PayloadReader, ScannerDataWithAnAimIdentifierAndGroupSeparators) {
  const ReadPayload payload = read(
      "]d20109506000134352"
      "10ABC\x1d"
      "17261231"
      "21XYZ");
  EXPECT_EQ(payload.form, PayloadForm::ScannerData);
  EXPECT_EQ(payload.symbologyIdentifier, "]d2");
  EXPECT_EQ(payload.ais,
            (std::vector<ReadField>{
                {"01", "09506000134352", 5, 14}, {"10", "ABC", 21, 3}, {"17", "261231", 27, 6}, {"21", "XYZ", 35, 3}}));
  // Without an identifier, with a leading GS, and a GS after a fixed-length value.
  const ReadPayload keyboard = read(
      "\x1d"
      "0109506000134352\x1d"
      "3103000195");
  EXPECT_EQ(keyboard.symbologyIdentifier, "");
  EXPECT_EQ(keyboard.ais, (std::vector<ReadField>{{"01", "09506000134352", 3, 14}, {"3103", "000195", 22, 6}}));
}

TEST(PayloadReader, ADigitalLinkInAPlainQrCode) {
  const ReadPayload payload = read("]Q1https://id.example.com/01/09506000134352");
  EXPECT_EQ(payload.form, PayloadForm::DigitalLink);
  EXPECT_EQ(payload.symbologyIdentifier, "]Q1");
  EXPECT_EQ(payload.stem, "https://id.example.com");
  EXPECT_EQ(payload.ais, (std::vector<ReadField>{{"01", "09506000134352", 29, 14}}));
}

TEST(PayloadReader, EachFaultSaysWhereReadingStopped) {
  EXPECT_EQ(faultOf(""), (ReadFault{Kind::Empty, 0, ""}));
  EXPECT_EQ(faultOf("]d2"), (ReadFault{Kind::Empty, 3, ""}));
  EXPECT_EQ(faultOf("]x"), (ReadFault{Kind::SymbologyIdentifier, 0, "]x"}));
  EXPECT_EQ(faultOf("]Q1(01)09506000134352"), (ReadFault{Kind::SymbologyIdentifier, 0, "]Q1"}));
  EXPECT_EQ(faultOf("hello"), (ReadFault{Kind::Unrecognised, 0, "h"}));
  EXPECT_EQ(faultOf("https://id.gs1.org/AQnYUc1gmiYDAw"),
            (ReadFault{Kind::CompressedDigitalLink, 19, "AQnYUc1gmiYDAw"}));
  // The shortest compressed links, 10 characters: a GTIN alone,
  // (01)09780345418913, and a GLN alone, (414)0614141123452.
  EXPECT_EQ(faultOf("https://id.gs1.org/ARHKVAdpQg"), (ReadFault{Kind::CompressedDigitalLink, 19, "ARHKVAdpQg"}));
  EXPECT_EQ(faultOf("https://id.gs1.org/QUCO_anbfA"), (ReadFault{Kind::CompressedDigitalLink, 19, "QUCO_anbfA"}));
  EXPECT_EQ(faultOf("https://id.example.com/products/shampoo"), (ReadFault{Kind::NoPrimaryKey, 22, ""}));
  EXPECT_EQ(faultOf("https://id.example.com/product/42"), (ReadFault{Kind::NoPrimaryKey, 22, ""}));
  EXPECT_EQ(faultOf("https://id.example.com"), (ReadFault{Kind::NoPrimaryKey, 22, ""}));
  EXPECT_EQ(faultOf("https://a.example/01/0950 6"), (ReadFault{Kind::UriSyntax, 25, " "}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352/10/A%2"), (ReadFault{Kind::UriSyntax, 39, "10"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352/10/A%00"), (ReadFault{Kind::UriSyntax, 39, "10"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352?shelf"), (ReadFault{Kind::UriSyntax, 36, "shelf"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352?a=1&a=2"), (ReadFault{Kind::UriSyntax, 40, "a"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352?99999=1"), (ReadFault{Kind::UnknownAi, 36, "99999"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352?10="), (ReadFault{Kind::EmptyValue, 39, "10"}));
  EXPECT_EQ(faultOf("https://a.example/01//10/A"), (ReadFault{Kind::EmptyValue, 21, "01"}));
  EXPECT_EQ(faultOf("01095060001343"), (ReadFault{Kind::Truncated, 2, "01"}));
  EXPECT_EQ(faultOf("0109506000134352"
                    "23X"),
            (ReadFault{Kind::UnknownAi, 16, "23"}));
  EXPECT_EQ(faultOf("0109506000134352"
                    "10\x1d"
                    "21A"),
            (ReadFault{Kind::EmptyValue, 18, "10"}));
  EXPECT_EQ(faultOf("(01)09506000134352(10"), (ReadFault{Kind::Bracket, 18, ")"}));
  EXPECT_EQ(faultOf("x(01)09506000134352"), (ReadFault{Kind::Unrecognised, 0, "x"}));
  EXPECT_EQ(faultOf("(01)09506000134352(ab)C"), (ReadFault{Kind::Bracket, 19, "ab"}));
  EXPECT_EQ(faultOf("(01)09506000134352(999)C"), (ReadFault{Kind::UnknownAi, 19, "999"}));
  EXPECT_EQ(faultOf("(01)09506000134352(10)"), (ReadFault{Kind::EmptyValue, 22, "10"}));
}

TEST(PayloadReader, ADetailQuotesWholeCharacters) {
  EXPECT_EQ(faultOf("\u00c4"), (ReadFault{Kind::Unrecognised, 0, "\u00c4"}));
  EXPECT_EQ(faultOf("]d\u00c4"), (ReadFault{Kind::SymbologyIdentifier, 0, "]d\u00c4"}));
  EXPECT_EQ(faultOf("]d2\u20ac"), (ReadFault{Kind::Unrecognised, 3, "\u20ac"}));
  EXPECT_EQ(faultOf("]d20109506000134352\u00c4"), (ReadFault{Kind::UnknownAi, 19, "\u00c4"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352/10/\u00c4"), (ReadFault{Kind::UriSyntax, 39, "\u00c4"}));
}

TEST(PayloadReader, AFixedLengthCountsCharacters) {
  // 14 characters in 15 bytes: the value is read whole, and the format check
  // refuses its last character.
  EXPECT_EQ(read("]d2010950600013435\u00c410X").ais,
            (std::vector<ReadField>{{"01", "0950600013435\u00c4", 5, 15}, {"10", "X", 22, 1}}));
  EXPECT_EQ(faultOf("]d201095060001343\u00c4"), (ReadFault{Kind::Truncated, 5, "01"}));
}

TEST(PayloadReader, PercentEscapesMustDecodeToUtf8) {
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352/10/A%C3"), (ReadFault{Kind::UriSyntax, 39, "10"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352?99=%E2%82"), (ReadFault{Kind::UriSyntax, 39, "99"}));
  EXPECT_EQ(faultOf("https://a.example/01/09506000134352?linkType=%FF"), (ReadFault{Kind::UriSyntax, 45, "linkType"}));
  EXPECT_EQ(read("https://a.example/01/09506000134352/10/%C3%84").ais[1].value, "\u00c4");
}

}  // namespace
}  // namespace codepayload::testing
