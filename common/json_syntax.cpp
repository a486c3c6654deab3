#include "common/json_syntax.h"

#include "common/ascii.h"
#include "common/utf8.h"

namespace codepayload::common {

namespace {

constexpr std::size_t kMaxDepth = 1024;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// A recursive descent over the grammar of RFC 8259 section 2 to 7. Each step
// returns false with `fault` set at the first byte that does not fit.
class SyntaxCheck {
 public:
  explicit SyntaxCheck(std::string_view text) : text_(text) {}

  std::optional<JsonSyntaxFault> run() {
    skipWhitespace();
    if (!value(0)) return fault_;
    skipWhitespace();
    if (at_ != text_.size()) return JsonSyntaxFault{at_, "the end of the text"};
    return std::nullopt;
  }

 private:
  bool fail(std::string_view expected) {
    fault_ = JsonSyntaxFault{at_, expected};
    return false;
  }

  bool atEnd() const { return at_ == text_.size(); }
  char next() const { return text_[at_]; }

  void skipWhitespace() {
    while (!atEnd() && (next() == ' ' || next() == '\t' || next() == '\n' || next() == '\r')) ++at_;
  }

  // A misspelt literal is pointed at from its start: "expected true" at the
  // 'x' of "trux" would not say which word is meant.
  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return fail(word);
    at_ += word.size();
    return true;
  }

  bool value(std::size_t depth) {
    if (atEnd()) return fail("a value");
    switch (next()) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"': return string();
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: return (next() == '-' || isDigit(next())) ? number() : fail("a value");
    }
  }

  bool object(std::size_t depth) {
    if (depth > kMaxDepth) return fail("at most 1024 levels of nesting");
    ++at_;  // '{'
    skipWhitespace();
    if (!atEnd() && next() == '}') {
      ++at_;
      return true;
    }
    for (;;) {
      if (atEnd() || next() != '"') return fail("a field name in quotes");
      if (!string()) return false;
      skipWhitespace();
      if (atEnd() || next() != ':') return fail("':'");
      ++at_;
      skipWhitespace();
      if (!value(depth)) return false;
      skipWhitespace();
      if (atEnd() || (next() != ',' && next() != '}')) return fail("',' or '}'");
      if (text_[at_++] == '}') return true;
      skipWhitespace();
    }
  }

  bool array(std::size_t depth) {
    if (depth > kMaxDepth) return fail("at most 1024 levels of nesting");
    ++at_;  // '['
    skipWhitespace();
    if (!atEnd() && next() == ']') {
      ++at_;
      return true;
    }
    for (;;) {
      if (!value(depth)) return false;
      skipWhitespace();
      if (atEnd() || (next() != ',' && next() != ']')) return fail("',' or ']'");
      if (text_[at_++] == ']') return true;
      skipWhitespace();
    }
  }

  bool string() {
    ++at_;  // '"'
    for (;;) {
      if (atEnd()) return fail("'\"' to end the string");
      const auto c = static_cast<unsigned char>(next());
      if (c == '"') {
        ++at_;
        return true;
      }
      if (c < 0x20) return fail("no control character in a string (\\n, \\t, \\u00XX)");
      if (c == '\\') {
        ++at_;
        if (!escape()) return false;
        continue;
      }
      if (c < 0x80) {
        ++at_;
        continue;
      }
      char32_t codePoint = 0;
      if (!decodeUtf8(text_, at_, codePoint)) return fail("UTF-8 text");
    }
  }

  bool escape() {
    if (atEnd()) return fail("an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX");
    const char c = text_[at_];
    if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't') {
      ++at_;
      return true;
    }
    if (c != 'u') return fail("an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX");
    ++at_;
    for (int i = 0; i < 4; ++i) {
      if (atEnd() || hexDigitValue(next()) < 0) return fail("a hex digit");
      ++at_;
    }
    return true;
  }

  bool digits() {
    if (atEnd() || !isDigit(next())) return fail("a digit");
    while (!atEnd() && isDigit(next())) ++at_;
    return true;
  }

  bool number() {
    if (next() == '-') ++at_;
    if (atEnd() || !isDigit(next())) return fail("a digit");
    if (next() == '0') {
      ++at_;
    } else if (!digits()) {
      return false;
    }
    if (!atEnd() && next() == '.') {
      ++at_;
      if (!digits()) return false;
    }
    if (!atEnd() && (next() == 'e' || next() == 'E')) {
      ++at_;
      if (!atEnd() && (next() == '+' || next() == '-')) ++at_;
      if (!digits()) return false;
    }
    return true;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  JsonSyntaxFault fault_{0, ""};
};

}  // namespace

std::optional<JsonSyntaxFault> findJsonSyntaxFault(std::string_view text) { return SyntaxCheck(text).run();
}

std::string lineAndColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && !(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace codepayload::common
