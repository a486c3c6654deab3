// fuzz_http_request: the bytes as what a client sends on a connection. The
// strict head reader (HeadScanner, parseRequestHead) and the chunked decoder
// must never crash, and:
//  - the scanner finds the same end or the same refusal whether the bytes
//    come at once or one at a time;
//  - a refusal has a status the connection answers (400, 414, 431 from the
//    scanner; also 417, 501, 505 from the parser), a code and a message;
//  - a complete head ends in CRLF CRLF and has no bare CR or LF;
//  - an accepted head has a token method, a visible-ASCII target, token names,
//    values without CR, LF or NUL, one Host on HTTP/1.1, never both a length
//    and chunked;
//  - an accepted head is no CONNECT; its target has no '#' and is a path
//    ("/..."), "*" on OPTIONS, or an http(s) URI whose authority is not
//    empty, has no userinfo and, with a port, has 1 to 5 digits up to 65535;
//    a Host value's port is such a port too; Content-Type, Authorization,
//    Origin, Sec-Fetch-Site and X-CSRF-Token come at most once; a close
//    option on any Connection line means no keep-alive;
//  - the body after an accepted chunked head decodes to the same state, bytes
//    and end whether fed at once or one byte at a time, and never passes its
//    limit.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/ascii.h"
#include "server/http/chunked_decoder.h"
#include "server/http/http_head.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using codepayload::fuzz::require;
using namespace codepayload::server;

constexpr std::size_t kBodyLimit = 4096;

bool isTcharOracle(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool isToken(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (!isTcharOracle(c)) return false;
  }
  return true;
}

// 1 to 5 digits, at most 65535.
bool isPortOracle(std::string_view text) {
  if (text.empty() || text.size() > 5) return false;
  unsigned long value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<unsigned long>(c - '0');
  }
  return value <= 65535;
}

// The port of a host[:port] (after an IP literal's ']', else after the first
// ':'), when it has one.
std::optional<std::string_view> portOf(std::string_view authority) {
  const std::size_t hostEnd = authority.starts_with('[') ? authority.find(']') : 0;
  const std::size_t colon = authority.find(':', hostEnd == std::string_view::npos ? authority.size() : hostEnd);
  if (colon == std::string_view::npos) return std::nullopt;
  return authority.substr(colon + 1);
}

void checkTarget(std::string_view method, std::string_view target) {
  require(method != "CONNECT", "an accepted CONNECT", target);
  require(target.find('#') == std::string_view::npos, "an accepted target with a fragment", target);
  if (target.starts_with('/')) return;
  if (target == "*") {
    require(method == "OPTIONS", "an accepted '*' on another method than OPTIONS", method);
    return;
  }
  std::string lower(target.substr(0, 8));
  for (char& c : lower) c = codepayload::common::toAsciiLower(c);
  const std::size_t schemeEnd = lower.starts_with("http://") ? 7 : lower.starts_with("https://") ? 8 : 0;
  require(schemeEnd != 0, "an accepted target that is no path, '*' or http(s) URI", target);
  const std::string_view rest = target.substr(schemeEnd);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?"));
  require(!authority.empty() && authority.find('@') == std::string_view::npos,
          "an accepted absolute-form target without a host or with userinfo", target);
  if (const auto port = portOf(authority)) require(isPortOracle(*port), "an accepted target's port", target);
}

void checkLineEnds(std::string_view head) {
  for (std::size_t index = 0; index < head.size(); ++index) {
    if (head[index] == '\n') require(index > 0 && head[index - 1] == '\r', "a bare LF in an accepted head", head);
    if (head[index] == '\r') require(index + 1 < head.size() && head[index + 1] == '\n', "a bare CR", head);
  }
}

void checkChunkedBody(std::string_view rest) {
  ChunkedDecoder whole;
  std::string wholeBody;
  const std::size_t wholeUsed = whole.feed(rest, &wholeBody, kBodyLimit);
  ChunkedDecoder bytewise;
  std::string bytewiseBody;
  std::size_t bytewiseUsed = 0;
  while (bytewiseUsed < rest.size() && bytewise.state() == ChunkedDecoder::State::NeedMore) {
    bytewiseUsed += bytewise.feed(rest.substr(bytewiseUsed, 1), &bytewiseBody, kBodyLimit);
  }
  require(whole.state() == bytewise.state(), "the chunked state depends on how the bytes came", rest);
  require(wholeBody == bytewiseBody, "the chunked body depends on how the bytes came", rest);
  require(wholeUsed == bytewiseUsed, "the end of a chunked body depends on how the bytes came", rest);
  require(wholeBody.size() <= kBodyLimit, "a chunked body passed its limit", rest);
  require(whole.bodyBytes() == wholeBody.size(), "bodyBytes differs from the bytes decoded", rest);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const HeadLimits limits;

  HeadScanner whole(limits);
  const HeadScanner::State state = whole.scan(bytes);
  HeadScanner bytewise(limits);
  HeadScanner::State bytewiseState = HeadScanner::State::NeedMore;
  for (std::size_t end = 0; end <= bytes.size() && bytewiseState == HeadScanner::State::NeedMore; ++end) {
    bytewiseState = bytewise.scan(bytes.substr(0, end));
  }
  require(state == bytewiseState, "the scan depends on how the bytes came", bytes);

  if (state == HeadScanner::State::Refused) {
    const HeadError& error = whole.error();
    require(error.status == 400 || error.status == 414 || error.status == 431, "a scanner status", error.message);
    require(!error.code.empty() && !error.message.empty(), "a refusal without code or message");
    require(bytewise.error().message == error.message, "the refusal depends on how the bytes came", bytes);
    return 0;
  }
  if (state == HeadScanner::State::NeedMore) return 0;

  require(whole.consumed() == bytewise.consumed(), "the head's end depends on how the bytes came", bytes);
  require(whole.consumed() <= bytes.size(), "the head ends past the bytes");
  const std::string_view head = whole.head(bytes);
  require(head.size() >= 4 && head.ends_with("\r\n\r\n") && !head.starts_with("\r\n"), "a head's shape", head);
  checkLineEnds(head);

  RequestHead parsed;
  if (const auto error = parseRequestHead(head, limits, parsed)) {
    const int status = error->status;
    require(status == 400 || status == 414 || status == 417 || status == 431 || status == 501 || status == 505,
            "a parser status", error->message);
    require(!error->code.empty() && !error->message.empty(), "a refusal without code or message");
    return 0;
  }
  require(isToken(parsed.method), "an accepted method is a token", parsed.method);
  for (const char c : parsed.target) require(c > 0x20 && c < 0x7f, "an accepted target is visible ASCII");
  checkTarget(parsed.method, parsed.target);
  using codepayload::common::equalsIgnoringAsciiCase;
  std::size_t hosts = 0;
  std::map<std::string, std::size_t> singleValueCounts;
  bool close = false;
  for (const HeaderField& field : parsed.fields) {
    require(isToken(field.name), "an accepted name is a token", field.name);
    require(field.value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos,
            "an accepted value holds CR, LF or NUL", field.value);
    if (equalsIgnoringAsciiCase(field.name, "Host")) {
      ++hosts;
      if (const auto port = portOf(field.value)) require(isPortOracle(*port), "an accepted Host's port", field.value);
    }
    for (const char* name : {"Content-Type", "Authorization", "Origin", "Sec-Fetch-Site", "X-CSRF-Token"}) {
      if (equalsIgnoringAsciiCase(field.name, name)) {
        require(++singleValueCounts[name] == 1, "an accepted second line of a single-value field", field.name);
      }
    }
    if (equalsIgnoringAsciiCase(field.name, "Connection")) {
      for (std::string_view list = field.value; !list.empty();) {
        const std::size_t comma = list.find(',');
        close = close || equalsIgnoringAsciiCase(codepayload::common::trimSpaceAndTab(list.substr(0, comma)), "close");
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      }
    }
  }
  require(parsed.version == HttpVersion::Http10 ? hosts <= 1 : hosts == 1, "Host count");
  require(!(close && parsed.keepAlive), "keep-alive despite Connection: close", head);
  require(!(parsed.chunked && parsed.contentLength), "both a length and chunked");
  if (parsed.chunked) checkChunkedBody(bytes.substr(whole.consumed()));
  return 0;
}
