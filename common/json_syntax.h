// Where a text stops being JSON (RFC 8259), for error messages that say
// where to look: a parser that stops at the first fault knows little of the
// place, and a person with a file of thousands of lines needs the line and
// column. Only called once a text has been refused, so it is written for
// clarity, not speed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::common {

struct JsonSyntaxFault {
  std::size_t offset;         // of the first byte that cannot stand where it is (text.size(): the text ended)
  std::string_view expected;  // what could have stood there: "',' or '}'", "a value", ...
};

// The first fault of `text` as one JSON value with only whitespace around
// it; nullopt when it is one. Nesting deeper than 1024 arrays and objects (the
// request parser's limit) is a fault too.
std::optional<JsonSyntaxFault> findJsonSyntaxFault(std::string_view text);

// "line 3, column 14": 1-based, lines ended by LF (a CR before it is part of
// no column), columns counted in characters.
std::string lineAndColumn(std::string_view text, std::size_t offset);

}  // namespace codepayload::common
