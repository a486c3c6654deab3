// Errors of the dictionary import. ImportError is what callers see; its
// message is "<file>:<line>: <cause>" for a bad line, "<file>: <cause>" for a
// bad file as a whole. SyntaxError is internal: a cause without a location,
// thrown by the token parsers and located by the line readers.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace codepayload::importer {

struct ImportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "<file>:<line>: <cause>"
inline std::string locate(std::string_view file, std::size_t line, std::string_view cause) {
  std::string message(file);
  message += ':';
  message += std::to_string(line);
  message += ": ";
  message += cause;
  return message;
}

}  // namespace codepayload::importer
