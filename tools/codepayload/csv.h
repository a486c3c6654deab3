// CSV as RFC 4180 has it, read for the batches of `codepayload` (written by
// common/csv_text.h): records end with
// CRLF or LF, fields are separated by commas, and a field that starts with a
// double quote runs to the next lone double quote, holding commas, line ends
// and doubled quotes ("" for "). The reader is strict where a spreadsheet is
// never loose: a quote inside an unquoted field, text after a closing quote
// and a quote left open are faults, each at its line and column, so a batch
// is never read with its fields shifted.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::cli {

// A fault of an input text, where it lies (1-based). In CSV the column is the
// field's number in its record (a spreadsheet's column); in text read a line
// at a time it is the character's place in the line; 0 when the fault is of
// the whole line. what(): "line 3, column 2: <text>" ("line 3: <text>").
struct InputError : std::runtime_error {
  InputError(std::size_t line, std::size_t column, const std::string& text);
  std::size_t line;
  std::size_t column;
};

struct CsvRecord {
  std::size_t line = 0;  // where the record starts
  std::vector<std::string> fields;
};

// Reads records one at a time. A UTF-8 byte order mark at the start (as
// spreadsheets write it) is skipped; a line end after the last record is
// optional. An empty line is a record of one empty field: what it means is
// the caller's question.
class CsvReader {
 public:
  explicit CsvReader(std::string_view text);

  // The next record into `record` (its buffers reused); false at the end of
  // the text. Throws InputError.
  bool next(CsvRecord& record);

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
};

}  // namespace codepayload::cli
