// JSON written again with line breaks and two-space indents, for a person to
// read (codepayload --pretty). It works piece by piece, as the engine streams
// its answer, so a large batch is never held whole; strings pass unchanged.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/output_sink.h"

namespace codepayload::cli {

class PrettyJson {
 public:
  // Appends to `out` the indented form of `piece`, the next part of a JSON
  // text without whitespace between its tokens (as the engine writes it).
  void feed(std::string_view piece, std::string& out);

 private:
  void newLine(std::string& out) const;

  std::size_t depth_ = 0;
  bool inString_ = false;
  bool escaped_ = false;
  // The last token opened an object or array: an empty one closes on the same
  // line ("[]"), so the line break waits for the next character.
  bool afterOpen_ = false;
};

// Passes the indented form of every piece on to `next`.
class PrettyJsonSink final : public OutputSink {
 public:
  explicit PrettyJsonSink(OutputSink& next) : next_(next) {}
  void write(std::string_view piece) override;

 private:
  OutputSink& next_;
  PrettyJson pretty_;
  std::string buffer_;
};

}  // namespace codepayload::cli
