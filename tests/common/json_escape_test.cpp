#include "common/json_escape.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::common {
namespace {

std::string literal(std::string_view text) {
  std::string out;
  appendJsonString(out, text);
  return out;
}

TEST(JsonEscape, PlainTextIsQuotedAsItIs) {
  EXPECT_EQ(literal(""), R"("")");
  EXPECT_EQ(literal("abc 123"), R"("abc 123")");
  EXPECT_EQ(literal("a/b"), R"("a/b")");   // '/' may stand unescaped
  EXPECT_EQ(literal("\x7F"), "\"\x7F\"");  // DEL is not a JSON control character
}

TEST(JsonEscape, QuotesAndBackslashesAreEscaped) {
  EXPECT_EQ(literal(R"(say "hi")"), R"("say \"hi\"")");
  EXPECT_EQ(literal(R"(C:\dir\)"), R"("C:\\dir\\")");
  EXPECT_EQ(literal(R"(\")"), R"("\\\"")");
}

TEST(JsonEscape, TheFiveShortEscapes) { EXPECT_EQ(literal("\b\f\n\r\t"), R"("\b\f\n\r\t")"); }

TEST(JsonEscape, EveryOtherControlCharacterIsAUnicodeEscape) {
  EXPECT_EQ(literal(std::string_view("\0", 1)), R"("\u0000")");
  EXPECT_EQ(literal("\x01"), R"("\u0001")");
  EXPECT_EQ(literal("\x07"), R"("\u0007")");
  EXPECT_EQ(literal("\x0B"), R"("\u000b")");  // VT has no short form
  EXPECT_EQ(literal("\x1B[0m"), R"("\u001b[0m")");
  EXPECT_EQ(literal("\x1F"), R"("\u001f")");
  EXPECT_EQ(literal(" "), R"(" ")");  // 0x20 is the first plain character
  // Every one of 0x00..0x1F is escaped, and nothing else below 0x80.
  for (int c = 0; c < 0x80; ++c) {
    const std::string out = literal(std::string(1, static_cast<char>(c)));
    const bool escaped = out.size() > 3;
    EXPECT_EQ(escaped, c < 0x20 || c == '"' || c == '\\') << c;
  }
}

TEST(JsonEscape, Utf8IsCopied) {
  EXPECT_EQ(literal("Gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "\"Gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80\"");
}

TEST(JsonEscape, AppendsToWhatIsThere) {
  std::string out = R"({"a":)";
  appendJsonString(out, "x\ny");
  out += '}';
  EXPECT_EQ(out, R"({"a":"x\ny"})");
}

// The cases the engine's and the server's own writers were tested with.
TEST(JsonEscape, AsTheEngineAndTheServerWroteBefore) {
  EXPECT_EQ(literal(std::string("a\"b\\c\n\t\x01\x1f"
                                "\xc3\xa9",
                                11)),
            "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f\xc3\xa9\"");
  EXPECT_EQ(literal(std::string("a\"b\\c\nd\te\r\x01\x1f", 12)), R"("a\"b\\c\nd\te\r\u0001\u001f")");
}

// Texts are checked eight bytes at a time, the last word filled up: an
// escape is found wherever it stands, in texts of every length around the
// words' edges.
TEST(JsonEscape, AnEscapeIsFoundAtEveryPlaceOfEveryLength) {
  for (std::size_t size = 1; size <= 25; ++size) {
    for (std::size_t at = 0; at < size; ++at) {
      std::string text(size, 'x');
      text[at] = '"';
      std::string expected = "\"" + text.substr(0, at) + "\\\"" + text.substr(at + 1) + "\"";
      EXPECT_EQ(literal(text), expected) << size << " " << at;
      text[at] = '\x01';
      expected = "\"" + text.substr(0, at) + "\\u0001" + text.substr(at + 1) + "\"";
      EXPECT_EQ(literal(text), expected) << size << " " << at;
    }
  }
}

TEST(JsonEscape, WritingNeedsNoMoreThanItsRoom) {
  // Every byte a control character: the most a text can take.
  const std::string text(9, '\x02');
  std::string room(jsonStringRoom(text.size()) + 1, '#');
  const char* end = writeJsonString(room.data(), text);
  EXPECT_EQ(static_cast<std::size_t>(end - room.data()), jsonStringRoom(text.size()));
  std::string expected = "\"";
  for (int i = 0; i < 9; ++i) expected += "\\u0002";
  EXPECT_EQ(room, expected + "\"#");
  std::string plain(jsonStringRoom(3), '#');
  EXPECT_EQ(std::string_view(plain.data(), static_cast<std::size_t>(writeJsonString(plain.data(), "a\"b") - plain.data())),
            R"("a\"b")");
}

TEST(JsonEscape, RunsBetweenEscapesAreKept) {
  EXPECT_EQ(literal("ab\"cd\\ef\ngh"), R"("ab\"cd\\ef\ngh")");
  EXPECT_EQ(literal("\"\""), R"("\"\"")");
}

}  // namespace
}  // namespace codepayload::common

namespace codepayload::common {
namespace {

TEST(JsonUtcTime, IsTheUtcDateAndTimeToTheMillisecondAsAJsonString) {
  std::string out = "x";
  // 2026-11-24T04:04:19.529Z: 1795493059 s and 529 ms since the epoch.
  appendJsonUtcTime(out, std::chrono::system_clock::time_point(std::chrono::milliseconds(1795493059529LL)));
  EXPECT_EQ(out, R"(x"2026-11-24T04:04:19.529Z")");
  out.clear();
  appendJsonUtcTime(out, std::chrono::system_clock::time_point(std::chrono::microseconds(999)));
  EXPECT_EQ(out, R"("1970-01-01T00:00:00.000Z")");
  // Independent values: Python's datetime.fromtimestamp(ms / 1000, timezone.utc).
  out.clear();
  appendJsonUtcTime(out, std::chrono::system_clock::time_point(std::chrono::milliseconds(1835481599999LL)));
  EXPECT_EQ(out, R"("2028-02-29T23:59:59.999Z")");
  out.clear();
  appendJsonUtcTime(out, std::chrono::system_clock::time_point(std::chrono::milliseconds(951868800000LL)));
  EXPECT_EQ(out, R"("2000-03-01T00:00:00.000Z")");
}

}  // namespace
}  // namespace codepayload::common
