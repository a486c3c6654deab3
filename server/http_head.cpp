#include "server/http_head.h"

#include <algorithm>
#include <array>

#include "common/ascii.h"

namespace codepayload::server {

namespace {

// RFC 9110 §5.6.2: tchar.
constexpr std::array<bool, 256> kTokenChars = [] {
  std::array<bool, 256> table{};
  for (int c = '0'; c <= '9'; ++c) table[static_cast<std::size_t>(c)] = true;
  for (int c = 'A'; c <= 'Z'; ++c) table[static_cast<std::size_t>(c)] = true;
  for (int c = 'a'; c <= 'z'; ++c) table[static_cast<std::size_t>(c)] = true;
  for (const char c : std::string_view("!#$%&'*+-.^_`|~")) table[static_cast<unsigned char>(c)] = true;
  return table;
}();

// RFC 3986 characters of a Host value: reg-name or IP literal, and a port.
constexpr std::array<bool, 256> kHostChars = [] {
  std::array<bool, 256> table{};
  for (int c = '0'; c <= '9'; ++c) table[static_cast<std::size_t>(c)] = true;
  for (int c = 'A'; c <= 'Z'; ++c) table[static_cast<std::size_t>(c)] = true;
  for (int c = 'a'; c <= 'z'; ++c) table[static_cast<std::size_t>(c)] = true;
  for (const char c : std::string_view("-._~!$&'()*+,;=:[]%")) table[static_cast<unsigned char>(c)] = true;
  return table;
}();

bool isToken(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), isTokenChar); }

bool isFieldValue(std::string_view value) { return std::all_of(value.begin(), value.end(), isFieldValueChar); }

// RFC 9112 §3.2: the request target is visible ASCII.
bool isTarget(std::string_view target) {
  if (target.empty()) return false;
  for (const char c : target) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

// A header name quoted in a message: tokens only (never raw bytes), shortened.
std::string quotedName(std::string_view name) {
  constexpr std::size_t kShown = 64;
  return "'" + std::string(name.substr(0, kShown)) + (name.size() > kShown ? "...'" : "'");
}

HeadError error(int status, std::string_view code, std::string message) {
  return HeadError{status, code, std::move(message)};
}

HeadError invalidHeader(std::string message) { return error(400, "InvalidHeader", std::move(message)); }
HeadError invalidFraming(std::string message) { return error(400, "InvalidFraming", std::move(message)); }

// The headers whose values the server acts on: an RFC 2047 encoded word in
// any of them is refused, so nothing in front of the server (a proxy, a WAF,
// a log filter that decodes them, as Poco 1.11 did) can read another value
// than the one the server acts on.
constexpr std::array<std::string_view, 8> kActedOnHeaders = {
    "Host", "Content-Length", "Transfer-Encoding", "Connection", "Expect", "Content-Type", "Accept", "Authorization"};

std::optional<HeadError> parseRequestLine(std::string_view line, const HeadLimits& limits, RequestHead& out) {
  const std::size_t methodEnd = line.find(' ');
  if (methodEnd == std::string_view::npos) {
    return error(400, "InvalidRequestLine", "The request line must be 'METHOD target HTTP/1.1'.");
  }
  out.method = line.substr(0, methodEnd);
  if (out.method.size() > limits.maxMethodBytes) {
    return error(400, "InvalidRequestLine",
                 "The method is longer than " + std::to_string(limits.maxMethodBytes) + " characters.");
  }
  if (!isToken(out.method)) {
    return error(400, "InvalidRequestLine", "The method must be a token (RFC 9110 §9.1), such as GET or POST.");
  }
  const std::size_t targetEnd = line.find(' ', methodEnd + 1);
  if (targetEnd == std::string_view::npos) {
    return error(400, "InvalidRequestLine", "The request line must be 'METHOD target HTTP/1.1'.");
  }
  out.target = line.substr(methodEnd + 1, targetEnd - methodEnd - 1);
  if (out.target.size() > limits.maxTargetBytes) {
    return error(414, "UriTooLong",
                 "The request target is longer than " + std::to_string(limits.maxTargetBytes) + " bytes.");
  }
  if (!isTarget(out.target)) {
    return error(400, "InvalidRequestLine",
                 "The request target must be one run of visible ASCII characters, separated by single spaces.");
  }
  const std::string_view version = line.substr(targetEnd + 1);
  const bool versionShape = version.size() == 8 && version.starts_with("HTTP/") && version[5] >= '0' &&
                            version[5] <= '9' && version[6] == '.' && version[7] >= '0' && version[7] <= '9';
  if (!versionShape) {
    return error(400, "InvalidRequestLine", "The request line must end in HTTP/1.1 or HTTP/1.0.");
  }
  if (version == "HTTP/1.1") {
    out.version = HttpVersion::Http11;
  } else if (version == "HTTP/1.0") {
    out.version = HttpVersion::Http10;
  } else {
    return error(505, "HttpVersionNotSupported", "This server speaks HTTP/1.1 and HTTP/1.0 only.");
  }
  return std::nullopt;
}

std::optional<HeadError> parseField(std::string_view line, const HeadLimits& limits, HeaderField& out) {
  if (line.front() == ' ' || line.front() == '\t') {
    return invalidHeader("A header line starts with whitespace (obs-fold, refused by RFC 9112 §5.2).");
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return invalidHeader("A header line has no colon.");
  const std::string_view name = line.substr(0, colon);
  if (!name.empty() && (name.back() == ' ' || name.back() == '\t')) {
    return invalidHeader("Whitespace between a header name and its colon (refused by RFC 9112 §5.1).");
  }
  if (!isToken(name)) return invalidHeader("A header name is not a token (RFC 9110 §5.1).");
  if (name.size() > limits.maxNameBytes) {
    return error(431, "HeaderTooLarge",
                 "A header name is longer than " + std::to_string(limits.maxNameBytes) + " characters.");
  }
  const std::string_view value = common::trimSpaceAndTab(line.substr(colon + 1));
  if (!isFieldValue(value)) {
    return invalidHeader("The value of " + quotedName(name) + " contains a control character.");
  }
  out = HeaderField{name, value};
  return std::nullopt;
}

// RFC 9110 §8.6: 1*DIGIT. Refused as well: leading zeros (a count has one
// spelling) and more than 18 digits (far past any limit, and no overflow).
std::optional<std::uint64_t> parseContentLength(std::string_view value) {
  if (value.empty() || value.size() > 18 || (value.size() > 1 && value.front() == '0')) return std::nullopt;
  std::uint64_t length = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    length = length * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return length;
}

// Connection: a comma-separated list of options.
void applyConnectionOptions(std::string_view value, RequestHead& out) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    const std::string_view option = common::trimSpaceAndTab(value.substr(0, comma));
    if (common::equalsIgnoringAsciiCase(option, "close")) out.keepAlive = false;
    if (common::equalsIgnoringAsciiCase(option, "keep-alive") && out.version == HttpVersion::Http10)
      out.keepAlive = true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

// Interprets the fields the server acts on and checks them against each other.
std::optional<HeadError> interpretFields(RequestHead& out) {
  std::size_t hosts = 0;
  std::size_t lengths = 0;
  std::size_t transferEncodings = 0;
  std::string_view connection;
  out.keepAlive = out.version == HttpVersion::Http11;
  for (const HeaderField& field : out.fields) {
    for (const std::string_view acted : kActedOnHeaders) {
      if (common::equalsIgnoringAsciiCase(field.name, acted) && field.value.find("=?") != std::string_view::npos) {
        return invalidHeader("RFC 2047 encoded words are not accepted in " + quotedName(field.name) + ".");
      }
    }
    if (common::equalsIgnoringAsciiCase(field.name, "Host")) {
      ++hosts;
      for (const char c : field.value) {
        if (!kHostChars[static_cast<unsigned char>(c)]) return invalidHeader("The Host value is not a host[:port].");
      }
    } else if (common::equalsIgnoringAsciiCase(field.name, "Content-Length")) {
      ++lengths;
      out.contentLength = parseContentLength(field.value);
      if (!out.contentLength) {
        return invalidFraming("Content-Length must be a byte count: decimal digits only, no sign, no leading zeros.");
      }
    } else if (common::equalsIgnoringAsciiCase(field.name, "Transfer-Encoding")) {
      ++transferEncodings;
      if (!common::equalsIgnoringAsciiCase(field.value, "chunked")) {
        return error(501, "NotImplemented", "The only transfer coding this server reads is chunked.");
      }
      out.chunked = true;
    } else if (common::equalsIgnoringAsciiCase(field.name, "Connection")) {
      connection = field.value;
    } else if (common::equalsIgnoringAsciiCase(field.name, "Expect")) {
      if (!common::equalsIgnoringAsciiCase(field.value, "100-continue")) {
        return error(417, "ExpectationFailed", "The only expectation this server meets is 100-continue.");
      }
      out.expectContinue = out.version == HttpVersion::Http11;
    }
  }
  if (hosts > 1 || (hosts == 0 && out.version == HttpVersion::Http11)) {
    return invalidHeader("Send exactly one Host header (RFC 9112 §3.2).");
  }
  if (lengths > 1) return invalidFraming("Send one Content-Length header, not several.");
  if (transferEncodings > 1) return invalidFraming("Send one Transfer-Encoding header, not several.");
  if (out.chunked && out.contentLength) {
    return invalidFraming("The body length is ambiguous: send one Content-Length or chunked encoding, not both.");
  }
  if (out.chunked && out.version == HttpVersion::Http10) {
    return invalidFraming("HTTP/1.0 requests cannot use Transfer-Encoding (RFC 9112 §6.1).");
  }
  applyConnectionOptions(connection, out);
  return std::nullopt;
}

}  // namespace

bool isTokenChar(char c) { return kTokenChars[static_cast<unsigned char>(c)]; }

bool isFieldValueChar(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= 0x20 || byte == '\t') && byte != 0x7f;
}

HeadScanner::State HeadScanner::refuse(int status, std::string_view code, std::string message) {
  error_ = HeadError{status, code, std::move(message)};
  return State::Refused;
}

// The request line grew past every limit before it ended: a method too long
// to be one, or a target too long to serve.
HeadScanner::State HeadScanner::refuseLongRequestLine(std::string_view bytes) {
  const std::string_view line = bytes.substr(lineStart_, position_ - lineStart_);
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos || space > limits_.maxMethodBytes) {
    return refuse(400, "InvalidRequestLine",
                  "The method is longer than " + std::to_string(limits_.maxMethodBytes) + " characters.");
  }
  return refuse(414, "UriTooLong",
                "The request target is longer than " + std::to_string(limits_.maxTargetBytes) + " bytes.");
}

HeadScanner::State HeadScanner::scan(std::string_view bytes) {
  const std::size_t longestRequestLine = limits_.maxMethodBytes + limits_.maxTargetBytes + 10;
  while (position_ < bytes.size()) {
    const char c = bytes[position_];
    if (c == '\n') return refuse(400, "InvalidHeader", "A line ends in LF without CR (RFC 9112 §2.2).");
    if (c == '\r') {
      if (position_ + 1 == bytes.size()) return State::NeedMore;
      if (bytes[position_ + 1] != '\n') return refuse(400, "InvalidHeader", "A CR is not followed by LF.");
      const bool emptyLine = position_ == lineStart_;
      position_ += 2;
      if (emptyLine && inRequestLine_) {
        start_ = lineStart_ = position_;  // an empty line before the request line
        continue;
      }
      if (emptyLine) {
        end_ = position_;
        return State::Complete;
      }
      inRequestLine_ = false;
      lineStart_ = position_;
      continue;
    }
    ++position_;
    const std::size_t lineLength = position_ - lineStart_;
    if (inRequestLine_) {
      if (lineLength > longestRequestLine) return refuseLongRequestLine(bytes);
      if (lineLength > limits_.maxMethodBytes &&
          bytes.substr(lineStart_, lineLength).find(' ') == std::string_view::npos) {
        return refuseLongRequestLine(bytes);
      }
    } else if (lineLength > limits_.maxLineBytes) {
      return refuse(431, "HeaderTooLarge",
                    "A header line is longer than " + std::to_string(limits_.maxLineBytes) + " bytes.");
    }
    if (position_ > limits_.maxHeadBytes) {
      return refuse(431, "HeaderTooLarge",
                    "The request head is larger than " + std::to_string(limits_.maxHeadBytes) + " bytes.");
    }
  }
  return State::NeedMore;
}

std::optional<HeadError> parseRequestHead(std::string_view head, const HeadLimits& limits, RequestHead& out) {
  out.fields.clear();
  out.contentLength.reset();
  out.chunked = false;
  out.expectContinue = false;
  std::size_t lineEnd = head.find("\r\n");
  if (auto failure = parseRequestLine(head.substr(0, lineEnd), limits, out)) return failure;
  std::size_t lineStart = lineEnd + 2;
  while (lineStart + 2 <= head.size()) {
    lineEnd = head.find("\r\n", lineStart);
    if (lineEnd == lineStart) break;  // the blank line
    if (out.fields.size() == limits.maxFields) {
      return error(431, "HeaderTooLarge", "More than " + std::to_string(limits.maxFields) + " header fields.");
    }
    HeaderField field;
    if (auto failure = parseField(head.substr(lineStart, lineEnd - lineStart), limits, field)) return failure;
    out.fields.push_back(field);
    lineStart = lineEnd + 2;
  }
  return interpretFields(out);
}

}  // namespace codepayload::server
