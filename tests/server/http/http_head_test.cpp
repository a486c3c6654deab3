// The strict request head: RFC 9112 §2-§7 cases, each refusal with its exact
// status, code and message, and what an accepted head yields.
#include "server/http/http_head.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::server {
namespace {

const HeadLimits kLimits;

struct Scanned {
  HeadScanner::State state;
  std::string head;
  std::size_t consumed = 0;
  HeadError error;
};

Scanned scanAll(const std::string& bytes) {
  HeadScanner scanner(kLimits);
  Scanned result{scanner.scan(bytes), {}, 0, {}};
  if (result.state == HeadScanner::State::Complete) {
    result.head = std::string(scanner.head(bytes));
    result.consumed = scanner.consumed();
  }
  if (result.state == HeadScanner::State::Refused) result.error = scanner.error();
  return result;
}

// The refusal of a complete head, or status 0 when it is accepted.
HeadError refusalOf(const std::string& bytes) {
  const Scanned scanned = scanAll(bytes);
  if (scanned.state == HeadScanner::State::Refused) return scanned.error;
  EXPECT_EQ(scanned.state, HeadScanner::State::Complete) << bytes;
  RequestHead head;
  const auto error = parseRequestHead(scanned.head, kLimits, head);
  return error ? *error : HeadError{0, {}, {}};
}

void expectRefused(const std::string& bytes, int status, std::string_view code, const std::string& message) {
  SCOPED_TRACE(::testing::PrintToString(bytes.substr(0, 200)));
  const HeadError error = refusalOf(bytes);
  EXPECT_EQ(error.status, status);
  EXPECT_EQ(error.code, code);
  EXPECT_EQ(error.message, message);
}

const std::string kLine = "POST /codes HTTP/1.1\r\nHost: x\r\n";

TEST(HttpHead, AnAcceptedHeadYieldsItsPartsAndFraming) {
  const std::string bytes =
      "\r\n\r\nPOST /codes?x=1 HTTP/1.1\r\nHost: example.com:8443\r\nContent-Length: 12\r\n"
      "Accept:  a/b , c/d \t\r\nExpect: 100-Continue\r\n\r\n{\"codes\":[]}";
  const Scanned scanned = scanAll(bytes);
  ASSERT_EQ(scanned.state, HeadScanner::State::Complete);
  EXPECT_EQ(scanned.consumed, bytes.size() - 12);
  EXPECT_TRUE(scanned.head.starts_with("POST /codes?x=1 HTTP/1.1\r\n"));
  RequestHead head;
  ASSERT_FALSE(parseRequestHead(scanned.head, kLimits, head));
  EXPECT_EQ(head.method, "POST");
  EXPECT_EQ(head.target, "/codes?x=1");
  EXPECT_EQ(head.version, HttpVersion::Http11);
  ASSERT_EQ(head.fields.size(), 4u);
  EXPECT_EQ(head.fields[2].name, "Accept");
  EXPECT_EQ(head.fields[2].value, "a/b , c/d");
  EXPECT_EQ(head.contentLength, 12u);
  EXPECT_FALSE(head.chunked);
  EXPECT_TRUE(head.expectContinue);
  EXPECT_TRUE(head.keepAlive);
}

TEST(HttpHead, KeepAliveFollowsTheVersionAndConnection) {
  const auto keepAlive = [](const std::string& bytes) {
    RequestHead head;
    const Scanned scanned = scanAll(bytes);
    EXPECT_FALSE(parseRequestHead(scanned.head, kLimits, head));
    return head.keepAlive;
  };
  EXPECT_TRUE(keepAlive("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_FALSE(keepAlive("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Close\r\n\r\n"));
  EXPECT_FALSE(keepAlive("GET / HTTP/1.0\r\n\r\n"));
  EXPECT_TRUE(keepAlive("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"));
  // Connection is a list: every line counts, and close wins (RFC 9112 §9.6).
  EXPECT_FALSE(keepAlive("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nConnection: keep-alive\r\n\r\n"));
  EXPECT_FALSE(keepAlive("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n"));
  EXPECT_FALSE(keepAlive("GET / HTTP/1.0\r\nConnection: close, keep-alive\r\n\r\n"));
  EXPECT_TRUE(keepAlive("GET / HTTP/1.0\r\nConnection: x-option\r\nConnection: keep-alive\r\n\r\n"));
}

TEST(HttpHead, AnIncompleteHeadNeedsMore) {
  EXPECT_EQ(scanAll("POST /codes HTTP/1.1\r\nHost: x\r\n").state, HeadScanner::State::NeedMore);
  EXPECT_EQ(scanAll("POST /codes HTTP/1.1\r\nHost: x\r\n\r").state, HeadScanner::State::NeedMore);
  EXPECT_EQ(scanAll("").state, HeadScanner::State::NeedMore);
}

TEST(HttpHead, ScanningResumesWhereItStopped) {
  const std::string bytes = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /next";
  HeadScanner scanner(kLimits);
  for (std::size_t end = 0; end < 34; ++end) {
    ASSERT_EQ(scanner.scan(std::string_view(bytes).substr(0, end)), HeadScanner::State::NeedMore) << end;
  }
  ASSERT_EQ(scanner.scan(bytes), HeadScanner::State::Complete);
  EXPECT_EQ(scanner.consumed(), 34u);
  EXPECT_EQ(scanner.head(bytes), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
}

// RFC 9112 §5.1, §5.2, §2.2 and the header findings of the black-box test.
TEST(HttpHead, MalformedFieldLinesAreRefused) {
  expectRefused(kLine + "Transfer-Encoding : chunked\r\n\r\n", 400, "InvalidHeader",
                "Whitespace between a header name and its colon (refused by RFC 9112 §5.1).");
  expectRefused(kLine + "Content-Length\t: 5\r\n\r\n", 400, "InvalidHeader",
                "Whitespace between a header name and its colon (refused by RFC 9112 §5.1).");
  expectRefused(kLine + "No colon here\r\n\r\n", 400, "InvalidHeader", "A header line has no colon.");
  expectRefused(kLine + "Bad Name: v\r\n\r\n", 400, "InvalidHeader", "A header name is not a token (RFC 9110 §5.1).");
  expectRefused(kLine + ": v\r\n\r\n", 400, "InvalidHeader", "A header name is not a token (RFC 9110 §5.1).");
  expectRefused(kLine + "X-A: one\r\n two\r\n\r\n", 400, "InvalidHeader",
                "A header line starts with whitespace (obs-fold, refused by RFC 9112 §5.2).");
  expectRefused("POST /codes HTTP/1.1\r\n Host: x\r\n\r\n", 400, "InvalidHeader",
                "A header line starts with whitespace (obs-fold, refused by RFC 9112 §5.2).");
  expectRefused(kLine + "X-A: a\rHost: y\r\n\r\n", 400, "InvalidHeader", "A CR is not followed by LF.");
  expectRefused(kLine + "X-A: a\nHost: y\r\n\r\n", 400, "InvalidHeader",
                "A line ends in LF without CR (RFC 9112 §2.2).");
  expectRefused("GET / HTTP/1.1\nHost: x\n\n", 400, "InvalidHeader", "A line ends in LF without CR (RFC 9112 §2.2).");
  expectRefused(kLine + std::string("X-A: a\0b\r\n\r\n", 12), 400, "InvalidHeader",
                "The value of 'X-A' contains a control character.");
  expectRefused(kLine + "X-A: a\x7f\r\n\r\n", 400, "InvalidHeader", "The value of 'X-A' contains a control character.");
}

TEST(HttpHead, ContentLengthIsDigitsOnlyOnceAndAlone) {
  const std::string notACount = "Content-Length must be a byte count: decimal digits only, no sign, no leading zeros.";
  for (const std::string value :
       {"+5", "-1", "0005", "0x10", "5, 5", "abc", "12abc", "", "5 5", "18446744073709551616", "1234567890123456789"}) {
    expectRefused(kLine + "Content-Length: " + value + "\r\n\r\n", 400, "InvalidFraming", notACount);
  }
  expectRefused(kLine + "Content-Length: 5\r\nContent-Length: 5\r\n\r\n", 400, "InvalidFraming",
                "Send one Content-Length header, not several.");
  expectRefused(kLine + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "InvalidFraming",
                "The body length is ambiguous: send one Content-Length or chunked encoding, not both.");
  RequestHead head;
  ASSERT_FALSE(parseRequestHead(kLine + "Content-Length: 0\r\n\r\n", kLimits, head));
  EXPECT_EQ(head.contentLength, 0u);
  ASSERT_FALSE(parseRequestHead(kLine + "content-length: 123456789012345678\r\n\r\n", kLimits, head));
  EXPECT_EQ(head.contentLength, 123456789012345678u);
}

TEST(HttpHead, TransferEncodingIsChunkedOnlyOnHttp11) {
  RequestHead head;
  ASSERT_FALSE(parseRequestHead(kLine + "Transfer-Encoding: Chunked\r\n\r\n", kLimits, head));
  EXPECT_TRUE(head.chunked);
  for (const std::string value : {"gzip, chunked", "chunked, chunked", "identity", "xchunked", ""}) {
    expectRefused(kLine + "Transfer-Encoding: " + value + "\r\n\r\n", 501, "NotImplemented",
                  "The only transfer coding this server reads is chunked.");
  }
  expectRefused(kLine + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "InvalidFraming",
                "Send one Transfer-Encoding header, not several.");
  expectRefused("POST /codes HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "InvalidFraming",
                "HTTP/1.0 requests cannot use Transfer-Encoding (RFC 9112 §6.1).");
}

TEST(HttpHead, EncodedWordsAreRefusedInTheHeadersTheServerActsOn) {
  for (const std::string name : {"Authorization", "authorization", "Content-Type", "Accept", "Host"}) {
    expectRefused("POST /codes HTTP/1.1\r\n" + std::string(name == "Host" || name == "host" ? "" : "Host: x\r\n") +
                      name + ": =?UTF-8?B?QmVhcmVyIHg=?=\r\n\r\n",
                  400, "InvalidHeader", "RFC 2047 encoded words are not accepted in '" + name + "'.");
  }
  // Other headers are passed over: the server never reads them.
  EXPECT_EQ(refusalOf(kLine + "X-Note: =?UTF-8?B?eA==?=\r\n\r\n").status, 0);
}

TEST(HttpHead, HostIsRequiredOnceOnHttp11) {
  expectRefused("GET / HTTP/1.1\r\n\r\n", 400, "InvalidHeader", "Send exactly one Host header (RFC 9112 §3.2).");
  expectRefused("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400, "InvalidHeader",
                "Send exactly one Host header (RFC 9112 §3.2).");
  expectRefused("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "InvalidHeader", "The Host value is not a host[:port].");
  expectRefused("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400, "InvalidHeader", "The Host value is not a host[:port].");
  EXPECT_EQ(refusalOf("GET / HTTP/1.0\r\n\r\n").status, 0);
  EXPECT_EQ(refusalOf("GET / HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n").status, 0);
  EXPECT_EQ(refusalOf("GET / HTTP/1.1\r\nHost:\r\n\r\n").status, 0);
}

// RFC 9110 §7.2 and RFC 3986 §3.2.2-§3.2.3: host [ ":" port ].
TEST(HttpHead, HostIsAHostAndAPort) {
  const auto host = [](const std::string& value) { return "GET / HTTP/1.1\r\nHost: " + value + "\r\n\r\n"; };
  for (const std::string value : {"x:abc", "x:", "x:99999", "x:65536", "x:123456", "x:-1", "x:+80", "x:1:2",
                                  "[::1]:", "[::1]:abc", "[::1]:70000"}) {
    expectRefused(host(value), 400, "InvalidHeader", "The Host port must be 1 to 5 digits, at most 65535.");
  }
  const std::string notAHost =
      "The Host name is not a registered name, an IPv4 address or a bracketed IP address (RFC 3986 §3.2.2).";
  for (const std::string value : {":8443",        "[::1",      "::1",        "[::g]",
                                  "[::1]x",       "[]",        "[1.2.3.4]",  "[fe80::1%25eth0]",
                                  "[v1.]",        "[v.x]",     "[vg.x]",     "x]",
                                  "a[b",          "999.1.1.1", "127.1",      "1.2.3.4.5",
                                  "01.2.3.4",     "1.2.3.256", "0x7f.0.0.1", "2130706433",
                                  "example.0x7f", "a%2",       "a%zz",       "%"}) {
    expectRefused(host(value), 400, "InvalidHeader", notAHost);
  }
  for (const std::string value : {"x",
                                  "x:0",
                                  "x:1",
                                  "x:08443",
                                  "x:65535",
                                  "127.0.0.1:8443",
                                  "0.0.0.0",
                                  "255.255.255.255",
                                  "[::1]",
                                  "[::1]:8443",
                                  "[::ffff:1.2.3.4]:1",
                                  "[2001:DB8::A]",
                                  "[v7.a:b]",
                                  "example.com.",
                                  "EXAMPLE.com:443",
                                  "a%41b",
                                  "a_b~c",
                                  "xn--bcher-kva.example",
                                  "example.123abc",
                                  "!$&'()*+,;="}) {
    EXPECT_EQ(refusalOf(host(value)).status, 0) << value;
  }
}

// RFC 9112 §3.2: origin-form without a fragment; absolute-form only as an
// http(s) URI without userinfo; asterisk-form only for OPTIONS; no CONNECT.
TEST(HttpHead, TheTargetFormFitsTheMethod) {
  const auto line = [](const std::string& requestLine) { return requestLine + "\r\nHost: x\r\n\r\n"; };
  const std::string fragment = "The request target must not hold a fragment ('#'; RFC 9112 §3.2).";
  for (const std::string target : {"/codes#f", "/#", "/codes?x=1#", "https://x/codes#top", "*#"}) {
    expectRefused(line("GET " + target + " HTTP/1.1"), 400, "InvalidRequestLine", fragment);
  }
  const std::string userinfo = "The request target must not hold userinfo (user@host; RFC 9110 §4.2.4).";
  for (const std::string target : {"https://user@x/codes", "http://user:secret@x/", "https://@x", "https://a@b@x/"}) {
    expectRefused(line("GET " + target + " HTTP/1.1"), 400, "InvalidRequestLine", userinfo);
  }
  const std::string scheme = "An absolute-form target must be an http or https URI.";
  for (const std::string target : {"ftp://x/codes", "file:///etc/passwd", "httpx://x/", "mailto:a@b", "urn:isbn:1"}) {
    expectRefused(line("GET " + target + " HTTP/1.1"), 400, "InvalidRequestLine", scheme);
  }
  expectRefused(line("GET http:/codes HTTP/1.1"), 400, "InvalidRequestLine",
                "An http or https target must name its host: https://host/path (RFC 9110 §4.2).");
  const std::string targetHost =
      "The host of the request target is not a registered name, an IPv4 address or a bracketed IP address "
      "(RFC 3986 §3.2.2).";
  for (const std::string target :
       {"http:///codes", "https://:8443/", "https://127.1/", "https://[::1/", "https://x%/"}) {
    expectRefused(line("GET " + target + " HTTP/1.1"), 400, "InvalidRequestLine", targetHost);
  }
  for (const std::string target : {"https://x:abc/", "https://x:/", "https://x:99999/codes", "https://[::1]:/"}) {
    expectRefused(line("GET " + target + " HTTP/1.1"), 400, "InvalidRequestLine",
                  "The port of the request target must be 1 to 5 digits, at most 65535.");
  }
  for (const std::string method : {"GET", "POST", "HEAD"}) {
    expectRefused(line(method + " * HTTP/1.1"), 400, "InvalidRequestLine",
                  "The target '*' (asterisk-form) is only for OPTIONS (RFC 9112 §3.2.4).");
  }
  for (const std::string target : {"x.example:443", "localhost:8443", "[::1]:8443"}) {
    expectRefused(line("GET " + target + " HTTP/1.1"), 400, "InvalidRequestLine",
                  "The target host:port (authority-form) is only for CONNECT (RFC 9112 §3.2.3).");
  }
  for (const std::string target : {"codes", "..", "%2Fcodes", "x.example", "1http://x/"}) {
    expectRefused(line("GET " + target + " HTTP/1.1"), 400, "InvalidRequestLine",
                  "The request target must be a path such as /codes, an http or https URI, or * for OPTIONS.");
  }
  for (const std::string target : {"x.example:443", "/", "*"}) {
    expectRefused(line("CONNECT " + target + " HTTP/1.1"), 501, "NotImplemented",
                  "This server does not implement CONNECT: it is not a proxy.");
  }

  for (const std::string requestLine :
       {"GET /codes?x=1&y=/? HTTP/1.1", "OPTIONS * HTTP/1.1", "GET /a@b HTTP/1.1", "GET //x/y HTTP/1.1",
        "GET https://localhost:8443/oauth/token?grant_type=x HTTP/1.1", "GET HTTPS://X/codes HTTP/1.1",
        "GET http://[::1]:8443/healthz HTTP/1.1", "GET https://x HTTP/1.1", "GET https://x?y HTTP/1.1",
        "GET https://x/a@b HTTP/1.0"}) {
    EXPECT_EQ(refusalOf(line(requestLine)).status, 0) << requestLine;
  }
  const std::string absolute = line("GET https://x.example:8443/healthz?a HTTP/1.1");
  RequestHead head;
  ASSERT_FALSE(parseRequestHead(absolute, kLimits, head));
  EXPECT_EQ(head.target, "https://x.example:8443/healthz?a");
}

// Fields the server reads one value of come once; lists may come in several lines.
TEST(HttpHead, SingleValueFieldsComeOnce) {
  for (const std::string name : {"Content-Type", "Authorization", "Origin", "Sec-Fetch-Site", "X-CSRF-Token"}) {
    expectRefused(kLine + name + ": a\r\nX-Other: b\r\n" + name + ": a\r\n\r\n", 400, "InvalidHeader",
                  "Send one " + name + " header, not several.");
  }
  expectRefused(kLine + "Content-Type: application/json\r\ncontent-TYPE: text/plain\r\n\r\n", 400, "InvalidHeader",
                "Send one Content-Type header, not several.");
  EXPECT_EQ(refusalOf(kLine + "Accept: a/b\r\nAccept: c/d\r\nCookie: a=1\r\nCookie: b=2\r\nX-Forwarded-For: 1.2.3.4\r\n"
                              "X-Forwarded-For: 5.6.7.8\r\nContent-Type: a/b\r\nAuthorization: Bearer x\r\n\r\n")
                .status,
            0);
}

TEST(HttpHead, TheRequestLineIsExact) {
  const std::string shape = "The request line must be 'METHOD target HTTP/1.1'.";
  expectRefused("GET\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine", shape);
  expectRefused("GET /\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine", shape);
  expectRefused("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine",
                "The request target must be one run of visible ASCII characters, separated by single spaces.");
  expectRefused("GET / x HTTP/1.1\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine",
                "The request line must end in HTTP/1.1 or HTTP/1.0.");
  expectRefused("GET /\x80 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine",
                "The request target must be one run of visible ASCII characters, separated by single spaces.");
  expectRefused("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine",
                "The method must be a token (RFC 9110 §9.1), such as GET or POST.");
  expectRefused("GET / <script>\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine",
                "The request line must end in HTTP/1.1 or HTTP/1.0.");
  expectRefused("GET / http/1.1\r\nHost: x\r\n\r\n", 400, "InvalidRequestLine",
                "The request line must end in HTTP/1.1 or HTTP/1.0.");
  expectRefused("GET / HTTP/1.1 \r\nHost: x\r\n\r\n", 400, "InvalidRequestLine",
                "The request line must end in HTTP/1.1 or HTTP/1.0.");
  for (const std::string version : {"HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "HTTP/3.0"}) {
    expectRefused("GET / " + version + "\r\nHost: x\r\n\r\n", 505, "HttpVersionNotSupported",
                  "This server speaks HTTP/1.1 and HTTP/1.0 only.");
  }
}

TEST(HttpHead, ExpectationsOtherThanContinueFail) {
  expectRefused(kLine + "Expect: something\r\n\r\n", 417, "ExpectationFailed",
                "The only expectation this server meets is 100-continue.");
  RequestHead head;
  ASSERT_FALSE(parseRequestHead("POST / HTTP/1.0\r\nExpect: 100-continue\r\n\r\n", kLimits, head));
  EXPECT_FALSE(head.expectContinue);  // RFC 9110 §10.1.1: ignored on HTTP/1.0
}

TEST(HttpHead, LimitsAreRefusedWithTheirOwnStatus) {
  std::string fields;
  for (int index = 0; index < 99; ++index) fields += "X-" + std::to_string(index) + ": v\r\n";
  EXPECT_EQ(refusalOf(kLine + fields + "\r\n").status, 0);  // Host + 99 = 100 fields
  expectRefused(kLine + fields + "X-Last: v\r\n\r\n", 431, "HeaderTooLarge", "More than 100 header fields.");
  expectRefused(kLine + "X-" + std::string(300, 'n') + ": v\r\n\r\n", 431, "HeaderTooLarge",
                "A header name is longer than 256 characters.");
  expectRefused(kLine + "X-Long: " + std::string(9000, 'v') + "\r\n\r\n", 431, "HeaderTooLarge",
                "A header line is longer than 8192 bytes.");
  std::string many;
  for (int index = 0; index < 8; ++index) many += "X-" + std::to_string(index) + ": " + std::string(5000, 'v') + "\r\n";
  expectRefused(kLine + many + "\r\n", 431, "HeaderTooLarge", "The request head is larger than 32768 bytes.");
  expectRefused("GET /" + std::string(9000, 'q') + " HTTP/1.1\r\nHost: x\r\n\r\n", 414, "UriTooLong",
                "The request target is longer than 8192 bytes.");
  expectRefused(std::string(64, 'G') + " / HTTP/1.1\r\n\r\n", 400, "InvalidRequestLine",
                "The method is longer than 20 characters.");
  // Refused as soon as the bytes show it, without waiting for the end.
  EXPECT_EQ(scanAll(std::string(21, 'G')).state, HeadScanner::State::Refused);
  EXPECT_EQ(scanAll("GET /" + std::string(8250, 'q')).error.status, 414);
}

}  // namespace
}  // namespace codepayload::server
