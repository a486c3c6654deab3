// tools/codepayload/pretty_json.h: the engine's JSON indented for a person,
// the same whatever pieces it arrives in.
#include "tools/codepayload/pretty_json.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::cli {
namespace {

std::string pretty(std::string_view json) {
  PrettyJson printer;
  std::string out;
  printer.feed(json, out);
  return out;
}

TEST(PrettyJson, IndentsObjectsAndArraysByTwoSpaces) {
  EXPECT_EQ(pretty(R"({"codes":[{"reference":"1","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"}],)"
                   R"("failures":[]})"),
            "{\n"
            "  \"codes\": [\n"
            "    {\n"
            "      \"reference\": \"1\",\n"
            "      \"barcodeText\": \"(01)09506000134352\",\n"
            "      \"hri\": \"(01)09506000134352\"\n"
            "    }\n"
            "  ],\n"
            "  \"failures\": []\n"
            "}");
}

TEST(PrettyJson, EmptyContainersNullsAndNumbersStayOnTheirLine) {
  EXPECT_EQ(pretty(R"({"a":{},"b":[],"c":null,"d":[1,true]})"),
            "{\n  \"a\": {},\n  \"b\": [],\n  \"c\": null,\n  \"d\": [\n    1,\n    true\n  ]\n}");
}

TEST(PrettyJson, StringsPassUnchanged) {
  EXPECT_EQ(pretty(R"(["a,b:{[c]}","q\"{,}","back\\",""])"),
            "[\n  \"a,b:{[c]}\",\n  \"q\\\"{,}\",\n  \"back\\\\\",\n  \"\"\n]");
}

TEST(PrettyJson, AnyPiecesGiveTheSameText) {
  const std::string json = R"({"parsed":[{"reference":"x\"]","definition":{"ais":[]},"digitalLink":null}],"failures":[]})";
  const std::string whole = pretty(json);
  PrettyJson printer;
  std::string byCharacter;
  for (const char c : json) printer.feed(std::string_view(&c, 1), byCharacter);
  EXPECT_EQ(byCharacter, whole);

  std::string collected;
  StringSink strings(collected);
  PrettyJsonSink sink(strings);
  sink.write(json.substr(0, 17));
  sink.write(json.substr(17));
  EXPECT_EQ(collected, whole);
}

}  // namespace
}  // namespace codepayload::cli
