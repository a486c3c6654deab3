// A strict decoder of the chunked transfer coding (RFC 9112 §7.1), fed bytes
// as they arrive. Anything off the grammar (a chunk size that is not hex, a
// missing CRLF after a chunk, a bare LF, a malformed trailer field) ends the
// body as Malformed: the connection then closes, so no byte after it can be
// read as a next request. Chunk extensions are allowed and ignored; trailer
// fields are checked and dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace codepayload::server {

class ChunkedDecoder {
 public:
  enum class State { NeedMore, Complete, Malformed, TooLarge };

  // Decodes from `input`, appending the body bytes to `out` (nothing when
  // `out` is null: the body is dropped) until the body is complete, malformed
  // or would pass `limit` bytes in all. Returns how many bytes of `input` it
  // used; the bytes after a Complete body belong to the next request.
  std::size_t feed(std::string_view input, std::string* out, std::size_t limit);

  State state() const { return state_; }
  std::uint64_t bodyBytes() const { return bodyBytes_; }

 private:
  enum class Step { Size, Extension, SizeLf, Data, DataCr, DataLf, TrailerStart, Trailer, TrailerLf, FinalLf };

  State fail() { return state_ = State::Malformed; }
  // One byte of the framing: of a size line (its digits, extension and LF),
  // of the trailers, or the CRLF after a chunk's data or the last trailer.
  void sizeLine(char c, std::size_t limit);
  void trailers(char c);
  void lineEnd(char c);

  // Longest chunk-size line (size, extensions) and all trailer lines together.
  static constexpr std::size_t kMaxSizeLine = 1024;
  static constexpr std::size_t kMaxTrailerBytes = 8 * 1024;

  State state_ = State::NeedMore;
  Step step_ = Step::Size;
  std::uint64_t chunkSize_ = 0;  // of the chunk being read
  std::uint64_t remaining_ = 0;  // data bytes left in it
  std::size_t sizeDigits_ = 0;
  std::size_t lineBytes_ = 0;     // of the size line, or of all trailers
  bool trailerNameDone_ = false;  // the trailer line's colon was seen
  std::uint64_t bodyBytes_ = 0;
};

}  // namespace codepayload::server
