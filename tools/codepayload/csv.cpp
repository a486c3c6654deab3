#include "tools/codepayload/csv.h"

namespace codepayload::cli {

namespace {

std::string located(std::size_t line, std::size_t column, const std::string& text) {
  std::string out = "line " + std::to_string(line);
  if (column != 0) out += ", column " + std::to_string(column);
  return out + ": " + text;
}

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

InputError::InputError(std::size_t errorLine, std::size_t errorColumn, const std::string& text)
    : std::runtime_error(located(errorLine, errorColumn, text)), line(errorLine), column(errorColumn) {}

CsvReader::CsvReader(std::string_view text) : text_(text) {
  if (text_.starts_with(kByteOrderMark)) position_ = kByteOrderMark.size();
}

bool CsvReader::next(CsvRecord& record) {
  if (position_ >= text_.size()) return false;
  record.line = line_;
  std::size_t count = 0;
  // Ends the record at a line end (LF or CRLF) at position_, if there is one.
  const auto endsRecord = [this] {
    if (position_ >= text_.size()) return true;
    if (text_[position_] == '\n') {
      ++position_;
      ++line_;
      return true;
    }
    if (text_[position_] == '\r' && position_ + 1 < text_.size() && text_[position_ + 1] == '\n') {
      position_ += 2;
      ++line_;
      return true;
    }
    return false;
  };
  while (true) {
    const std::size_t column = count + 1;
    if (record.fields.size() < column) record.fields.emplace_back();
    std::string& field = record.fields[count++];
    field.clear();
    if (position_ < text_.size() && text_[position_] == '"') {
      const std::size_t openedOn = line_;
      ++position_;
      while (true) {
        if (position_ >= text_.size()) {
          throw InputError(openedOn, column, "the quoted field that starts here is not closed");
        }
        const char c = text_[position_++];
        if (c == '"') {
          if (position_ < text_.size() && text_[position_] == '"') {
            field += '"';
            ++position_;
            continue;
          }
          break;
        }
        if (c == '\n') ++line_;
        field += c;
      }
      if (endsRecord()) break;
      if (text_[position_] == ',') {
        ++position_;
        continue;
      }
      throw InputError(line_, column, "text after the closing quote of a quoted field");
    }
    const std::size_t start = position_;
    while (position_ < text_.size()) {
      const char c = text_[position_];
      if (c == ',' || c == '\n' || (c == '\r' && position_ + 1 < text_.size() && text_[position_ + 1] == '\n')) break;
      if (c == '"') {
        throw InputError(line_, column,
                         "a quote inside a field that does not start with one (quote the whole field and double "
                         "the quotes in it)");
      }
      ++position_;
    }
    field.assign(text_.substr(start, position_ - start));
    if (endsRecord()) break;
    ++position_;  // the comma
  }
  record.fields.resize(count);
  return true;
}

}  // namespace codepayload::cli
