// What may appear in a line of a dictionary or baseline file: valid UTF-8
// without control characters other than TAB.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "db/import/import_error.h"

namespace codepayload::importer {

// The cause when `line` is not acceptable ("not valid UTF-8", "control
// character 0x07"), empty when it is.
std::string lineTextProblem(std::string_view line);

// A release name: a date "YYYY-MM-DD" (month 01-12, day 01-31).
bool isReleaseName(std::string_view name);

// Splits on `separator`, keeping empty parts (they are errors the callers name).
std::vector<std::string_view> splitFields(std::string_view text, char separator);

}  // namespace codepayload::importer

namespace codepayload::importer {

// Walks a text line by line (lines end at '\n'; a '\r' before it is dropped,
// so CRLF files read the same). Line numbers count from 1.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : rest_(text) {}

  // The next line, or false at the end.
  bool next(std::string_view& line) {
    if (rest_.empty()) return false;
    const std::size_t end = rest_.find('\n');
    line = rest_.substr(0, end);
    rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number_;
    return true;
  }

  std::size_t number() const { return number_; }

 private:
  std::string_view rest_;
  std::size_t number_ = 0;
};

// Hands every line of `text` to reader.readLine(line, number); a SyntaxError
// it throws becomes ImportError "<fileName>:<line>: <cause>". Returns the
// number of lines read.
template <typename Reader>
std::size_t readEachLine(std::string_view text, std::string_view fileName, Reader& reader) {
  LineCursor lines(text);
  std::string_view line;
  while (lines.next(line)) {
    try {
      reader.readLine(line, lines.number());
    } catch (const SyntaxError& error) {
      throw ImportError(locate(fileName, lines.number(), error.what()));
    }
  }
  return lines.number();
}

}  // namespace codepayload::importer
