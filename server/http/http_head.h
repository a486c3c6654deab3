// The strict HTTP/1.1 request head (RFC 9112 §2-§7), read before anything is
// trusted. Poco 1.11's MessageHeader accepts what RFC 9112 says a server must
// reject (whitespace before a colon, lines without a colon, obs-fold, bare CR
// or LF, signed Content-Length, RFC 2047 encoded words it even decodes), so
// the service frames requests itself: HeadScanner finds where a head ends as
// bytes arrive, parseRequestHead() checks it and takes out what the server
// acts on. A refusal is a HeadError: status, ErrorEnvelope code and one
// sentence; the connection answers it and closes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::server {

enum class HttpVersion { Http10, Http11 };

struct HeaderField {
  std::string_view name;   // a token, as sent
  std::string_view value;  // without the surrounding whitespace
};

struct HeadLimits {
  std::size_t maxHeadBytes = 32 * 1024;  // request line, fields and the blank line
  std::size_t maxLineBytes = 8 * 1024;   // one field line, CRLF excluded
  std::size_t maxTargetBytes = 8 * 1024;
  std::size_t maxMethodBytes = 20;
  std::size_t maxNameBytes = 256;
  std::size_t maxFields = 100;
};

struct HeadError {
  int status = 400;
  std::string_view code;  // InvalidRequestLine, InvalidHeader, InvalidFraming, ...
  std::string message;
};

// Where a request head ends, found as bytes arrive. Empty lines before the
// request line are skipped (RFC 9112 §2.2). Every LF must follow a CR and
// every CR must be followed by LF.
class HeadScanner {
 public:
  explicit HeadScanner(const HeadLimits& limits) : limits_(limits) {}

  enum class State { NeedMore, Complete, Refused };

  // Scans `bytes` (everything received for this request so far, the same
  // prefix as the previous call) from where the last call stopped.
  State scan(std::string_view bytes);

  // After Complete: the head, from the request line to the blank line's CRLF.
  std::string_view head(std::string_view bytes) const { return bytes.substr(start_, end_ - start_); }
  // After Complete: how many bytes of `bytes` the head used (skipped empty
  // lines included); the body or the next request starts there.
  std::size_t consumed() const { return end_; }
  // After Refused.
  const HeadError& error() const { return error_; }

  // Ready for the next request, whose bytes start at index 0.
  void reset() {
    position_ = start_ = lineStart_ = end_ = 0;
    inRequestLine_ = true;
  }

 private:
  State refuse(int status, std::string_view code, std::string message);
  State refuseLongRequestLine(std::string_view bytes);

  const HeadLimits& limits_;
  std::size_t position_ = 0;   // next byte to scan
  std::size_t start_ = 0;      // first byte of the request line
  std::size_t lineStart_ = 0;  // first byte of the line being scanned
  bool inRequestLine_ = true;
  std::size_t end_ = 0;
  HeadError error_;
};

struct RequestHead {
  std::string_view method;
  std::string_view target;
  HttpVersion version = HttpVersion::Http11;
  std::vector<HeaderField> fields;  // in the order sent

  // From the fields.
  std::optional<std::uint64_t> contentLength;
  bool chunked = false;
  bool expectContinue = false;  // "Expect: 100-continue" on HTTP/1.1
  bool keepAlive = true;        // the client's wish (Connection, version)
};

// Checks `head` (HeadScanner::head) and fills `out`, whose views point into
// `head`. nullopt when the request is acceptable.
std::optional<HeadError> parseRequestHead(std::string_view head, const HeadLimits& limits, RequestHead& out);

// RFC 9110 §5.6.2 tchar: a character of a token (header names, methods).
bool isTokenChar(char c);
// RFC 9110 §5.5: a character a field value may hold (field-vchar, SP, HTAB),
// so any control character but HTAB is not one.
bool isFieldValueChar(char c);

}  // namespace codepayload::server
