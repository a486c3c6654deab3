// tools/codepayload/csv.h: RFC 4180 records read with the line each starts
// on, every fault at its line and column, and fields written back quoted only
// where they must be (common/csv_text.h), reading back as they were.
#include "tools/codepayload/csv.h"

#include <gtest/gtest.h>

#include <array>

#include "common/csv_text.h"

namespace codepayload::cli {
namespace {

struct Read {
  std::size_t line;
  std::vector<std::string> fields;
  bool operator==(const Read&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Read& read) {
  out << read.line << ":";
  for (const std::string& field : read.fields) out << " [" << field << "]";
  return out;
}

std::vector<Read> readAll(std::string_view text) {
  CsvReader reader(text);
  CsvRecord record;
  std::vector<Read> records;
  while (reader.next(record)) records.push_back({record.line, record.fields});
  return records;
}

// The message of the InputError reading `text` throws ("" when none).
std::string faultOf(std::string_view text) {
  try {
    readAll(text);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(CsvReader, RecordsEndWithLfOrCrlfAndTheLastLineEndIsOptional) {
  const std::vector<Read> expected{{1, {"a", "b"}}, {2, {"c", "d"}}, {3, {"e", ""}}};
  EXPECT_EQ(readAll("a,b\nc,d\ne,\n"), expected);
  EXPECT_EQ(readAll("a,b\r\nc,d\r\ne,\r\n"), expected);
  EXPECT_EQ(readAll("a,b\r\nc,d\ne,"), expected);
  EXPECT_EQ(readAll(""), std::vector<Read>{});
}

TEST(CsvReader, QuotedFieldsHoldCommasLineEndsAndDoubledQuotes) {
  EXPECT_EQ(readAll("\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nnext,\"\",x\n"),
            (std::vector<Read>{{1, {"a,b", "say \"hi\"", "two\nlines"}}, {3, {"next", "", "x"}}}));
  EXPECT_EQ(readAll("\"crlf\r\ninside\"\n"), (std::vector<Read>{{1, {"crlf\r\ninside"}}}));
}

TEST(CsvReader, AnEmptyLineIsARecordOfOneEmptyField) {
  EXPECT_EQ(readAll("a\n\nb\n"), (std::vector<Read>{{1, {"a"}}, {2, {""}}, {3, {"b"}}}));
}

TEST(CsvReader, SkipsAByteOrderMarkAndKeepsOtherBytesAsTheyAre) {
  EXPECT_EQ(readAll("\xEF\xBB\xBF"
                    "data\n]d2010\x1d"
                    "21 x\r\n"),
            (std::vector<Read>{{1, {"data"}},
                               {2,
                                {"]d2010\x1d"
                                 "21 x"}}}));
  // A CR alone is no line end.
  EXPECT_EQ(readAll("a\rb,c\n"), (std::vector<Read>{{1, {"a\rb", "c"}}}));
}

TEST(CsvReader, EveryFaultSaysItsLineAndColumn) {
  EXPECT_EQ(faultOf("a,b\nc,\"open\nstill open\n"),
            "line 2, column 2: the quoted field that starts here is not closed");
  EXPECT_EQ(faultOf("a,b\nc,d\"e\n"),
            "line 2, column 2: a quote inside a field that does not start with one (quote the whole field and double "
            "the quotes in it)");
  EXPECT_EQ(faultOf("a,\"b\nc\"d,e\n"), "line 2, column 2: text after the closing quote of a quoted field");
  try {
    readAll("x\n\"y");
    FAIL() << "no fault";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line, 2u);
    EXPECT_EQ(error.column, 1u);
  }
}

TEST(InputError, NamesTheLineAloneWhenNoColumnIsAtFault) {
  EXPECT_STREQ(InputError(4, 0, "no AI in this row").what(), "line 4: no AI in this row");
  EXPECT_STREQ(InputError(4, 2, "not valid UTF-8").what(), "line 4, column 2: not valid UTF-8");
}

TEST(CsvWriter, QuotesOnlyWhatMustBeQuotedAndEndsRecordsWithCrlf) {
  std::string out;
  const std::array<std::string_view, 6> fields{"plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", ""};
  common::appendCsvRecord(out, fields);
  EXPECT_EQ(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",\r\n");
  // What is written reads back as it was.
  EXPECT_EQ(readAll(out), (std::vector<Read>{{1, {"plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", ""}}}));
}

}  // namespace
}  // namespace codepayload::cli
