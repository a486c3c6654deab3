#include "server/http/http_head.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>

#include "common/ascii.h"
#include "common/error_codes.h"

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

// RFC 3986 §2.3 unreserved and §2.2 sub-delims: what a reg-name holds besides
// percent-encodings.
bool isRegNameChar(char c) {
  return kHostChars[static_cast<unsigned char>(c)] && c != ':' && c != '[' && c != ']' && c != '%';
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool allDigits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), isDigit); }

// The number 1 to 5 digits spell.
int smallNumber(std::string_view digits) {
  int number = 0;
  for (const char c : digits) number = number * 10 + (c - '0');
  return number;
}

// RFC 3986 §3.2.2 IPv4address: four dec-octets (0-255, no leading zero).
bool isIpv4Address(std::string_view text) {
  for (int octet = 0; octet < 4; ++octet) {
    const std::size_t dot = text.find('.');
    if ((octet < 3) == (dot == std::string_view::npos)) return false;
    const std::string_view digits = text.substr(0, dot);
    if (!allDigits(digits) || digits.size() > 3 || (digits.size() > 1 && digits.front() == '0')) return false;
    if (smallNumber(digits) > 255) return false;
    text = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  }
  return true;
}

// RFC 3986 §3.2.2 IP-literal: "[" IPv6address "]" or "[" IPvFuture "]".
bool isIpLiteral(std::string_view text) {
  if (text.size() < 3 || text.front() != '[' || text.back() != ']') return false;
  const std::string_view inside = text.substr(1, text.size() - 2);
  if (inside.front() == 'v' || inside.front() == 'V') {
    // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    const std::size_t dot = inside.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 == inside.size()) return false;
    const std::string_view version = inside.substr(1, dot - 1);
    const std::string_view rest = inside.substr(dot + 1);
    return std::all_of(version.begin(), version.end(), [](char c) { return common::hexDigitValue(c) >= 0; }) &&
           std::all_of(rest.begin(), rest.end(), [](char c) { return c == ':' || isRegNameChar(c); });
  }
  // inet_pton takes exactly RFC 4291's text forms, which RFC 3986's
  // IPv6address spells out (no zone identifier).
  std::array<unsigned char, 16> address{};
  return ::inet_pton(AF_INET6, std::string(inside).c_str(), address.data()) == 1;
}

// RFC 3986 §3.2.2 reg-name, not empty (RFC 9110 §4.2.1: an http(s) URI has a
// host). A name whose last label is a number ("127.1", "0x7f.1",
// "2130706433") must be an IPv4address: resolvers and URL parsers read such
// names as IPv4 addresses in other spellings, so two readers would disagree
// on the host.
bool isRegName(std::string_view text) {
  if (text.empty()) return false;
  for (std::size_t index = 0; index < text.size(); ++index) {
    if (text[index] == '%') {
      if (index + 2 >= text.size() || common::hexDigitValue(text[index + 1]) < 0 ||
          common::hexDigitValue(text[index + 2]) < 0) {
        return false;
      }
      index += 2;
    } else if (!isRegNameChar(text[index])) {
      return false;
    }
  }
  const std::size_t lastDot = text.rfind('.');
  const std::string_view lastLabel = lastDot == std::string_view::npos ? text : text.substr(lastDot + 1);
  const bool hexNumber =
      lastLabel.size() > 2 && lastLabel[0] == '0' && (lastLabel[1] == 'x' || lastLabel[1] == 'X') &&
      std::all_of(lastLabel.begin() + 2, lastLabel.end(), [](char c) { return common::hexDigitValue(c) >= 0; });
  if (allDigits(lastLabel) || hexNumber) return isIpv4Address(text);
  return true;
}

// RFC 9110 §7.2, RFC 3986 §3.2.2-§3.2.3: host [ ":" port ] (no userinfo).
enum class AuthorityFault { None, Characters, Host, Port };

// A port of 1 to 5 digits whose number is at most 65535. RFC 3986 allows an
// empty or longer one; neither names a TCP port.
bool isPort(std::string_view text) { return allDigits(text) && text.size() <= 5 && smallNumber(text) <= 65535; }

AuthorityFault checkAuthority(std::string_view authority) {
  for (const char c : authority) {
    if (!kHostChars[static_cast<unsigned char>(c)]) return AuthorityFault::Characters;
  }
  std::size_t hostEnd = 0;
  if (authority.starts_with('[')) {
    hostEnd = authority.find(']');
    hostEnd = hostEnd == std::string_view::npos ? authority.size() : hostEnd + 1;
  } else {
    hostEnd = std::min(authority.find(':'), authority.size());
  }
  const std::string_view host = authority.substr(0, hostEnd);
  if (!(host.starts_with('[') ? isIpLiteral(host) : isRegName(host))) return AuthorityFault::Host;
  if (hostEnd == authority.size()) return AuthorityFault::None;
  if (authority[hostEnd] != ':') return AuthorityFault::Host;  // "[::1]x"
  return isPort(authority.substr(hostEnd + 1)) ? AuthorityFault::None : AuthorityFault::Port;
}

// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
bool isScheme(std::string_view text) {
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  return !text.empty() && alpha(text.front()) && std::all_of(text.begin(), text.end(), [&](char c) {
    return alpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.';
  });
}

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

HeadError invalidHeader(std::string message) { return error(400, error_code::kInvalidHeader, std::move(message)); }
HeadError invalidFraming(std::string message) { return error(400, error_code::kInvalidFraming, std::move(message)); }

// The headers whose values the server acts on: an RFC 2047 encoded word in
// any of them is refused, so nothing in front of the server (a proxy, a WAF,
// a log filter that decodes them, as Poco 1.11 did) can read another value
// than the one the server acts on.
constexpr std::array<std::string_view, 8> kActedOnHeaders = {
    "Host", "Content-Length", "Transfer-Encoding", "Connection", "Expect", "Content-Type", "Accept", "Authorization"};

HeadError invalidTarget(std::string message) { return error(400, error_code::kInvalidRequestLine, std::move(message)); }

// RFC 9112 §3.2: the four forms of a request target, each for its methods.
// A server is no proxy: CONNECT (authority-form) is not implemented, and an
// absolute-form target is taken only as an http(s) URI of this server.
std::optional<HeadError> checkTargetForm(std::string_view method, std::string_view target) {
  if (method == "CONNECT") {
    return error(501, error_code::kNotImplemented, "This server does not implement CONNECT: it is not a proxy.");
  }
  if (target.find('#') != std::string_view::npos) {
    return invalidTarget("The request target must not hold a fragment ('#'; RFC 9112 §3.2).");
  }
  if (target.starts_with('/')) return std::nullopt;  // origin-form: absolute-path [ "?" query ]
  if (target == "*") {
    if (method == "OPTIONS") return std::nullopt;
    return invalidTarget("The target '*' (asterisk-form) is only for OPTIONS (RFC 9112 §3.2.4).");
  }
  const std::size_t colon = target.find(':');
  const std::string_view scheme = target.substr(0, colon);
  const bool hasScheme = colon != std::string_view::npos && isScheme(scheme);
  const bool hasAuthority = hasScheme && target.substr(colon + 1).starts_with("//");
  const bool http = common::equalsIgnoringAsciiCase(scheme, "http") || common::equalsIgnoringAsciiCase(scheme, "https");
  if (!hasAuthority) {
    if (checkAuthority(target) == AuthorityFault::None && colon != std::string_view::npos) {
      return invalidTarget("The target host:port (authority-form) is only for CONNECT (RFC 9112 §3.2.3).");
    }
    if (hasScheme && !http) return invalidTarget("An absolute-form target must be an http or https URI.");
    if (hasScheme)
      return invalidTarget("An http or https target must name its host: https://host/path (RFC 9110 §4.2).");
    return invalidTarget("The request target must be a path such as /codes, an http or https URI, or * for OPTIONS.");
  }
  if (!http) return invalidTarget("An absolute-form target must be an http or https URI.");
  // absolute-form: scheme "://" authority path-abempty [ "?" query ]
  const std::string_view rest = target.substr(colon + 3);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?"));
  if (authority.find('@') != std::string_view::npos) {
    return invalidTarget("The request target must not hold userinfo (user@host; RFC 9110 §4.2.4).");
  }
  switch (checkAuthority(authority)) {
    case AuthorityFault::None: return std::nullopt;
    case AuthorityFault::Port:
      return invalidTarget("The port of the request target must be 1 to 5 digits, at most 65535.");
    case AuthorityFault::Characters:
    case AuthorityFault::Host: break;
  }
  return invalidTarget(
      "The host of the request target is not a registered name, an IPv4 address or a bracketed IP address "
      "(RFC 3986 §3.2.2).");
}

std::optional<HeadError> parseRequestLine(std::string_view line, const HeadLimits& limits, RequestHead& out) {
  const std::size_t methodEnd = line.find(' ');
  if (methodEnd == std::string_view::npos) {
    return error(400, error_code::kInvalidRequestLine, "The request line must be 'METHOD target HTTP/1.1'.");
  }
  out.method = line.substr(0, methodEnd);
  if (out.method.size() > limits.maxMethodBytes) {
    return error(400, error_code::kInvalidRequestLine,
                 "The method is longer than " + std::to_string(limits.maxMethodBytes) + " characters.");
  }
  if (!isToken(out.method)) {
    return error(400, error_code::kInvalidRequestLine,
                 "The method must be a token (RFC 9110 §9.1), such as GET or POST.");
  }
  const std::size_t targetEnd = line.find(' ', methodEnd + 1);
  if (targetEnd == std::string_view::npos) {
    return error(400, error_code::kInvalidRequestLine, "The request line must be 'METHOD target HTTP/1.1'.");
  }
  out.target = line.substr(methodEnd + 1, targetEnd - methodEnd - 1);
  if (out.target.size() > limits.maxTargetBytes) {
    return error(414, error_code::kUriTooLong,
                 "The request target is longer than " + std::to_string(limits.maxTargetBytes) + " bytes.");
  }
  if (!isTarget(out.target)) {
    return error(400, error_code::kInvalidRequestLine,
                 "The request target must be one run of visible ASCII characters, separated by single spaces.");
  }
  const std::string_view version = line.substr(targetEnd + 1);
  const bool versionShape = version.size() == 8 && version.starts_with("HTTP/") && version[5] >= '0' &&
                            version[5] <= '9' && version[6] == '.' && version[7] >= '0' && version[7] <= '9';
  if (!versionShape) {
    return error(400, error_code::kInvalidRequestLine, "The request line must end in HTTP/1.1 or HTTP/1.0.");
  }
  if (version == "HTTP/1.1") {
    out.version = HttpVersion::Http11;
  } else if (version == "HTTP/1.0") {
    out.version = HttpVersion::Http10;
  } else {
    return error(505, error_code::kHttpVersionNotSupported, "This server speaks HTTP/1.1 and HTTP/1.0 only.");
  }
  return checkTargetForm(out.method, out.target);
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
    return error(431, error_code::kHeaderTooLarge,
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

// The options of the Connection lines that decide keep-alive.
struct ConnectionOptions {
  bool close = false;
  bool keepAlive = false;
};

// Connection: a comma-separated list of options; its lines form one list.
void readConnectionOptions(std::string_view value, ConnectionOptions& options) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    const std::string_view option = common::trimSpaceAndTab(value.substr(0, comma));
    if (common::equalsIgnoringAsciiCase(option, "close")) options.close = true;
    if (common::equalsIgnoringAsciiCase(option, "keep-alive")) options.keepAlive = true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

// The Host value (RFC 9110 §7.2): host [ ":" port ], or empty when the
// target URI has no authority (RFC 9112 §3.2).
std::optional<HeadError> checkHost(std::string_view value) {
  if (value.empty()) return std::nullopt;
  switch (checkAuthority(value)) {
    case AuthorityFault::None: return std::nullopt;
    case AuthorityFault::Characters: return invalidHeader("The Host value is not a host[:port].");
    case AuthorityFault::Host: break;
    case AuthorityFault::Port: return invalidHeader("The Host port must be 1 to 5 digits, at most 65535.");
  }
  return invalidHeader(
      "The Host name is not a registered name, an IPv4 address or a bracketed IP address (RFC 3986 §3.2.2).");
}

// Fields the server reads one value of, and that are no lists: with two
// lines, a proxy in front and the server could each act on another one (RFC
// 9110 §5.3 forbids a sender to split such a field). Host, Content-Length and
// Transfer-Encoding have checks of their own below.
constexpr std::array<std::string_view, 5> kSingleValueFields = {"Authorization", "Content-Type", "Origin",
                                                                "Sec-Fetch-Site", "X-CSRF-Token"};

// Interprets the fields the server acts on and checks them against each other.
std::optional<HeadError> interpretFields(RequestHead& out) {
  std::size_t hosts = 0;
  std::size_t lengths = 0;
  std::size_t transferEncodings = 0;
  std::array<std::size_t, kSingleValueFields.size()> singleValueCounts{};
  ConnectionOptions connection;
  for (const HeaderField& field : out.fields) {
    for (const std::string_view acted : kActedOnHeaders) {
      if (common::equalsIgnoringAsciiCase(field.name, acted) && field.value.find("=?") != std::string_view::npos) {
        return invalidHeader("RFC 2047 encoded words are not accepted in " + quotedName(field.name) + ".");
      }
    }
    for (std::size_t index = 0; index < kSingleValueFields.size(); ++index) {
      if (!common::equalsIgnoringAsciiCase(field.name, kSingleValueFields[index])) continue;
      if (++singleValueCounts[index] > 1) {
        return invalidHeader("Send one " + std::string(kSingleValueFields[index]) + " header, not several.");
      }
    }
    if (common::equalsIgnoringAsciiCase(field.name, "Host")) {
      ++hosts;
      if (auto failure = checkHost(field.value)) return failure;
    } else if (common::equalsIgnoringAsciiCase(field.name, "Content-Length")) {
      ++lengths;
      out.contentLength = parseContentLength(field.value);
      if (!out.contentLength) {
        return invalidFraming("Content-Length must be a byte count: decimal digits only, no sign, no leading zeros.");
      }
    } else if (common::equalsIgnoringAsciiCase(field.name, "Transfer-Encoding")) {
      ++transferEncodings;
      if (!common::equalsIgnoringAsciiCase(field.value, "chunked")) {
        return error(501, error_code::kNotImplemented, "The only transfer coding this server reads is chunked.");
      }
      out.chunked = true;
    } else if (common::equalsIgnoringAsciiCase(field.name, "Connection")) {
      readConnectionOptions(field.value, connection);
    } else if (common::equalsIgnoringAsciiCase(field.name, "Expect")) {
      if (!common::equalsIgnoringAsciiCase(field.value, "100-continue")) {
        return error(417, error_code::kExpectationFailed, "The only expectation this server meets is 100-continue.");
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
  // RFC 9112 §9.3 and §9.6: close wins; HTTP/1.0 keeps the connection only when asked.
  out.keepAlive = !connection.close && (out.version == HttpVersion::Http11 || connection.keepAlive);
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
    return refuse(400, error_code::kInvalidRequestLine,
                  "The method is longer than " + std::to_string(limits_.maxMethodBytes) + " characters.");
  }
  return refuse(414, error_code::kUriTooLong,
                "The request target is longer than " + std::to_string(limits_.maxTargetBytes) + " bytes.");
}

HeadScanner::State HeadScanner::scan(std::string_view bytes) {
  const std::size_t longestRequestLine = limits_.maxMethodBytes + limits_.maxTargetBytes + 10;
  while (position_ < bytes.size()) {
    const char c = bytes[position_];
    if (c == '\n') return refuse(400, error_code::kInvalidHeader, "A line ends in LF without CR (RFC 9112 §2.2).");
    if (c == '\r') {
      if (position_ + 1 == bytes.size()) return State::NeedMore;
      if (bytes[position_ + 1] != '\n') return refuse(400, error_code::kInvalidHeader, "A CR is not followed by LF.");
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
      return refuse(431, error_code::kHeaderTooLarge,
                    "A header line is longer than " + std::to_string(limits_.maxLineBytes) + " bytes.");
    }
    if (position_ > limits_.maxHeadBytes) {
      return refuse(431, error_code::kHeaderTooLarge,
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
      return error(431, error_code::kHeaderTooLarge,
                   "More than " + std::to_string(limits.maxFields) + " header fields.");
    }
    HeaderField field;
    if (auto failure = parseField(head.substr(lineStart, lineEnd - lineStart), limits, field)) return failure;
    out.fields.push_back(field);
    lineStart = lineEnd + 2;
  }
  return interpretFields(out);
}

}  // namespace codepayload::server
