// Where the engine writes a response it produces in pieces. The engine owns
// this interface so that a caller (the HTTP layer, a CLI) can pass the text
// on as it is made, without the whole response ever being held in memory.
#pragma once

#include <string>
#include <string_view>

namespace codepayload {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // The next piece of the output; never empty. A sink may throw to abandon
  // the response (e.g. the peer went away); the engine lets it propagate.
  virtual void write(std::string_view piece) = 0;
};

// Appends every piece to a string.
class StringSink final : public OutputSink {
 public:
  explicit StringSink(std::string& out) : out_(out) {}
  void write(std::string_view piece) override { out_.append(piece); }

 private:
  std::string& out_;
};

}  // namespace codepayload
