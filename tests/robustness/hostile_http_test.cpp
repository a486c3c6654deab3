// Hostile HTTP against the real service (HTTPS on 127.0.0.1): bodies far over
// the limit, deeply nested JSON, huge numbers and strings, invalid UTF-8,
// duplicate keys, thousands of headers. Each case asserts the exact answer (or
// the close) and that a normal client is served right after.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tests/robustness/requests.h"
#include "tests/robustness/tls_connection.h"

namespace codepayload::robustness {
namespace {

using server::ServerConfig;
using server::testing::ServiceHarness;

constexpr std::size_t kMaxBodyBytes = 1024 * 1024;

std::string envelope(const std::string& code, const std::string& path, const std::string& message) {
  return R"({"errors":[{"code":")" + code + R"(","path":)" + (path.empty() ? "null" : "\"" + path + "\"") +
         R"(,"message":")" + message + R"("}]})";
}

class HostileHttp : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    harness_ = std::make_unique<ServiceHarness>([](ServerConfig& config) {
      config.maxBodyBytes = kMaxBodyBytes;
      config.ioTimeout = std::chrono::seconds(2);
      config.keepAliveTimeout = std::chrono::seconds(2);
    });
    endpoint_ = ServiceEndpoint{harness_->port(), harness_->clientContext()};
    token_ = harness_->token(harness_->createClient({"write:codes"}));
  }
  static void TearDownTestSuite() { harness_.reset(); }

  // A normal client, on a connection of its own, gets its codes.
  static void expectNormalClientServed() {
    const HttpResult result = exchange(endpoint_, codesCall(token_, kOneItem));
    EXPECT_EQ(result.status, 200);
    EXPECT_EQ(result.body, kOneItemResponse);
  }

  // POST /codes with `body` on a fresh connection.
  static HttpResult postCodes(const std::string& body) { return exchange(endpoint_, codesCall(token_, body)); }

  static std::string codesHead(const std::string& framing) {
    return "POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token_ +
           "\r\nContent-Type: application/json\r\n" + framing + "\r\n";
  }

  static std::unique_ptr<ServiceHarness> harness_;
  static ServiceEndpoint endpoint_;
  static std::string token_;
};

std::unique_ptr<ServiceHarness> HostileHttp::harness_;
ServiceEndpoint HostileHttp::endpoint_;
std::string HostileHttp::token_;

// --- Bodies far over the limit ----------------------------------------------

TEST_F(HostileHttp, AnnouncedBodyFarOverTheLimitIs413WhileTheBodyIsStillComing) {
  const std::string tooLarge =
      envelope("BodyTooLarge", "", "The body is larger than " + std::to_string(kMaxBodyBytes) + " bytes.");
  // 8 GiB announced; the client keeps sending. The answer must not wait for
  // the body, and the server must stop taking it: the sender is cut off long
  // before 64 MiB.
  TlsConnection connection(endpoint_);
  ASSERT_TRUE(connection.send(codesHead("Content-Length: 8589934592\r\n")));
  const auto started = std::chrono::steady_clock::now();
  const std::string block(64 * 1024, '[');
  std::size_t sent = 0;
  while (sent < 64u * 1024 * 1024 && !connection.readable(std::chrono::milliseconds(0))) {
    if (!connection.send(block)) break;
    sent += block.size();
  }
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 413);
  EXPECT_EQ(result.header("connection"), "Close");
  EXPECT_EQ(result.body, tooLarge);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  EXPECT_LT(sent, 64u * 1024 * 1024);
  EXPECT_TRUE(connection.closedByServer());
  expectNormalClientServed();
}

TEST_F(HostileHttp, ChunkedBodyFarOverTheLimitIsCutOffAt413) {
  const std::string tooLarge =
      envelope("BodyTooLarge", "", "The body is larger than " + std::to_string(kMaxBodyBytes) + " bytes.");
  TlsConnection connection(endpoint_);
  ASSERT_TRUE(connection.send(codesHead("Transfer-Encoding: chunked\r\n")));
  const std::string chunk = "8000\r\n" + std::string(0x8000, ' ') + "\r\n";  // 32 KiB chunks, forever
  std::size_t sent = 0;
  while (sent < 64u * 1024 * 1024 && !connection.readable(std::chrono::milliseconds(0))) {
    if (!connection.send(chunk)) break;
    sent += chunk.size();
  }
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 413);
  EXPECT_EQ(result.header("connection"), "Close");
  EXPECT_EQ(result.body, tooLarge);
  EXPECT_LT(sent, 64u * 1024 * 1024);
  EXPECT_TRUE(connection.closedByServer());
  expectNormalClientServed();
}

TEST_F(HostileHttp, ContentLengthsThatAreNoByteCountAreRefused) {
  // Signed, hexadecimal, text or past any count: each gets the framing error
  // and the connection closes.
  for (const std::string length : {"-1", "18446744073709551616", "12abc", "0x10"}) {
    SCOPED_TRACE(length);
    TlsConnection connection(endpoint_);
    ASSERT_TRUE(connection.send(codesHead("Content-Length: " + length + "\r\n") + kOneItem));
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 400);
    EXPECT_EQ(result.body, envelope("InvalidFraming", "",
                                    "Content-Length must be a byte count: decimal digits only, no sign, no leading "
                                    "zeros."));
    EXPECT_TRUE(connection.closedByServer());
  }
  expectNormalClientServed();
}

// A chunk-size line that is no hex number must end the exchange: the bytes
// after it are body bytes by the sender's framing, and answering them as a new
// request would let a body smuggle a request past anything that frames
// requests differently (a proxy in front of the plain listener).
TEST_F(HostileHttp, AMalformedChunkSizeClosesTheConnectionAndNothingAfterItIsAnswered) {
  const std::string smuggled = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  for (const std::string sizeLine : {"z", "-\r\n", "FFFFFFFFFFFFFFFFFFFFFFFF\r\n", "zz\r\n"}) {
    SCOPED_TRACE(::testing::PrintToString(sizeLine));
    TlsConnection connection(endpoint_);
    ASSERT_TRUE(connection.send(codesHead("Transfer-Encoding: chunked\r\n") + "2\r\n{}\r\n" + sizeLine + smuggled));
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 400);
    EXPECT_EQ(result.header("connection"), "Close") << result.body;
    const HttpResult afterwards = connection.readResponse(std::chrono::seconds(3));
    EXPECT_EQ(afterwards.status, 0) << "answered a request read from inside a body: " << afterwards.body;
  }
  expectNormalClientServed();
}

// --- Deeply nested JSON ----------------------------------------------------

TEST_F(HostileHttp, DeeplyNestedJsonIsRefusedAs400) {
  const std::size_t depth = 200000;  // 400 KB of brackets, under the body limit
  // The parser reads the strict request shape and never descends into what
  // does not fit it: the first misplaced level is the fault.
  const HttpResult inCodes = postCodes(R"({"codes":)" + std::string(depth, '[') + std::string(depth, ']') + "}");
  EXPECT_EQ(inCodes.status, 400);
  EXPECT_EQ(inCodes.body, envelope("WrongType", "codes.0", "codes.0: must be an object"));
  const HttpResult inReference =
      postCodes(R"({"codes":[{"reference":)" + std::string(depth, '[') + std::string(depth, ']') + "}]}");
  EXPECT_EQ(inReference.status, 400);
  EXPECT_EQ(inReference.body,
            envelope("WrongType", "codes.0.reference", "codes.0.reference: must be a string or null"));
  // Objects in objects, never closed.
  std::string objects;
  for (std::size_t level = 0; level < 50000; ++level) objects += R"({"a":)";
  const HttpResult unclosed = postCodes(objects);
  EXPECT_EQ(unclosed.status, 400);
  EXPECT_EQ(unclosed.body, envelope("InvalidJson", "",
                                    "the body: not valid JSON at line 1, column 5121: expected at most 1024 levels "
                                    "of nesting"));
  expectNormalClientServed();
}

// --- Huge numbers and strings ------------------------------------------------

TEST_F(HostileHttp, HugeNumbersWhereStringsBelongAreWrongTypes) {
  const std::string hugeInteger(100000, '9');
  EXPECT_EQ(postCodes(R"({"codes":[{"reference":)" + hugeInteger +
                      R"(,"primaryKey":{"key":"01","value":"1"},)"
                      R"("ais":[],"extensionParameters":[]}]})")
                .body,
            envelope("WrongType", "codes.0.reference", "codes.0.reference: must be a string or null"));
  EXPECT_EQ(postCodes(R"({"codes":[{"primaryKey":{"key":1e999999999,"value":"1"},"ais":[],)"
                      R"("extensionParameters":[]}]})")
                .body,
            envelope("WrongType", "codes.0.primaryKey.key", "codes.0.primaryKey.key: must be a string"));
  EXPECT_EQ(postCodes(R"({"codes":-)" + hugeInteger + "." + hugeInteger + "e-99999999999}").body,
            envelope("WrongType", "codes", "codes: must be an array"));
  const HttpResult rootNumber = postCodes(hugeInteger);
  EXPECT_EQ(rootNumber.status, 400);
  EXPECT_EQ(rootNumber.body, envelope("WrongType", "", "the body: must be a JSON object"));
  expectNormalClientServed();
}

TEST_F(HostileHttp, HugeStringsAreAnsweredByTheirRules) {
  const std::string huge(900 * 1024, '7');
  // A 900 KB AI value: an item failure, reported by position, not echoed.
  const HttpResult value = postCodes(R"({"codes":[{"primaryKey":{"key":"01","value":")" + huge +
                                     R"("},"ais":[],"extensionParameters":[]}]})");
  EXPECT_EQ(value.status, 200);
  EXPECT_EQ(value.body, R"({"codes":[],"failures":[{"reference":"0","errors":[{"code":"Validation.Invalid.primaryKey",)"
                        R"("path":"primaryKey","args":["01","gtinLength","921600"],)"
                        R"("message":"AI 01: a GTIN has 8, 12, 13 or 14 digits, not 921600."}]}]})");
  // A 900 KB AI key is the thing at fault and is named (args start with it):
  // the answer is as large as the key, never larger than the body limit (the
  // message quotes only its first 100 characters).
  const HttpResult key = postCodes(R"({"codes":[{"primaryKey":{"key":")" + huge +
                                   R"(","value":"1"},"ais":[],"extensionParameters":[]}]})");
  EXPECT_EQ(key.status, 200);
  EXPECT_EQ(key.body, R"({"codes":[],"failures":[{"reference":"0","errors":[{"code":"Validation.Invalid.primaryKey",)"
                      R"("path":"primaryKey","args":[")" +
                          huge + R"(","unknownAi"],"message":"AI ')" + std::string(100, '7') +
                          R"(...' is not in the GS1 Barcode Syntax Dictionary."}]}]})");
  // A 900 KB unknown field name: refused with its path (path and message
  // both name it).
  const HttpResult field = postCodes("{\"" + huge + "\":1}");
  EXPECT_EQ(field.status, 400);
  EXPECT_EQ(field.body, envelope("WrongType", huge, huge + ": unknown field"));
  expectNormalClientServed();
}

// --- Invalid UTF-8 -------------------------------------------------------------

TEST_F(HostileHttp, InvalidUtf8AnywhereIsInvalidJson) {
  // Each is found at its first byte: column 26 in a value, 16 in a key, 11 between tokens.
  const auto invalidJson = [](int column, std::string_view expected) {
    return envelope("InvalidJson", "",
                    "the body: not valid JSON at line 1, column " + std::to_string(column) + ": expected " +
                        std::string(expected));
  };
  const std::vector<std::string> sequences = {
      "\xC0\xAF",          // overlong '/'
      "\xE0\x80\xAF",      // overlong, three bytes
      "\xED\xA0\x80",      // UTF-16 surrogate encoded as UTF-8
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xFF",              // never valid
      "\x80",              // a lone continuation byte
      "\xE2\x82",          // truncated sequence
  };
  for (const std::string& bad : sequences) {
    SCOPED_TRACE(::testing::PrintToString(bad));
    const HttpResult inValue = postCodes(R"({"codes":[{"reference":"a)" + bad +
                                         R"(b",)"
                                         R"("primaryKey":{"key":"01","value":"09506000134352"},)"
                                         R"("ais":[],"extensionParameters":[]}]})");
    EXPECT_EQ(inValue.status, 400);
    EXPECT_EQ(inValue.body, invalidJson(26, "UTF-8 text"));
    const HttpResult inKey = postCodes(R"({"codes":[{"ref)" + bad + R"(":"x"}]})");
    EXPECT_EQ(inKey.status, 400);
    EXPECT_EQ(inKey.body, invalidJson(16, "UTF-8 text"));
    const HttpResult outsideStrings = postCodes(R"({"codes":[)" + bad + "]}");
    EXPECT_EQ(outsideStrings.status, 400);
    EXPECT_EQ(outsideStrings.body, invalidJson(11, "a value"));
  }
  // Escaped lone surrogates are valid JSON syntax but no Unicode text: the
  // string holding one is named.
  for (const std::string escape : {R"(\ud800)", R"(\udfff)", R"(\ud800\u0041)"}) {
    SCOPED_TRACE(escape);
    const HttpResult result = postCodes(R"({"codes":[{"reference":")" + escape +
                                        R"(",)"
                                        R"("primaryKey":{"key":"01","value":"09506000134352"},)"
                                        R"("ais":[],"extensionParameters":[]}]})");
    EXPECT_EQ(result.status, 400);
    EXPECT_EQ(result.body, envelope("InvalidJson", "codes.0.reference", "codes.0.reference: not valid JSON"));
  }
  expectNormalClientServed();
}

// --- Duplicate keys ----------------------------------------------------------------

TEST_F(HostileHttp, DuplicateKeysAreRefusedWithTheirPath) {
  const std::string item = R"({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})";
  EXPECT_EQ(postCodes(R"({"codes":[],"codes":[)" + item + "]}").body,
            envelope("WrongType", "codes", "codes: field given more than once"));
  EXPECT_EQ(postCodes(R"({"codes":[{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],)"
                      R"("primaryKey":{"key":"01","value":"09506000134352"},"extensionParameters":[]}]})")
                .body,
            envelope("WrongType", "codes.0.primaryKey", "codes.0.primaryKey: field given more than once"));
  EXPECT_EQ(postCodes(R"({"codes":[{"primaryKey":{"key":"01","key":"02","value":"09506000134352"},"ais":[],)"
                      R"("extensionParameters":[]}]})")
                .body,
            envelope("WrongType", "codes.0.primaryKey.key", "codes.0.primaryKey.key: field given more than once"));
  // The same name spelled with an escape is the same key.
  EXPECT_EQ(postCodes(R"({"codes":[],"co\u0064es":[]})").body,
            envelope("WrongType", "codes", "codes: field given more than once"));
  expectNormalClientServed();
}

// --- Headers -------------------------------------------------------------------------

TEST_F(HostileHttp, ThousandsOfHeadersAreRefusedAndTheConnectionClosed) {
  std::string headers;
  for (int index = 0; index < 5000; ++index) headers += "X-Filler-" + std::to_string(index) + ": v\r\n";
  TlsConnection connection(endpoint_);
  connection.send(codesHead(headers + "Content-Length: " + std::to_string(std::string(kOneItem).size()) + "\r\n") +
                  kOneItem);
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 431);
  EXPECT_EQ(result.reason, "Request Header Fields Too Large");
  EXPECT_EQ(result.header("connection"), "Close");
  EXPECT_EQ(result.body, envelope("HeaderTooLarge", "", "The request head is larger than 32768 bytes."));
  EXPECT_TRUE(connection.closedByServer());
  expectNormalClientServed();
}

TEST_F(HostileHttp, HeaderCountLimitIsExactly100Fields) {
  // Host, Authorization, Content-Type and Content-Length plus fillers.
  auto withFillers = [](int fillers) {
    std::string headers;
    for (int index = 0; index < fillers; ++index) headers += "X-Filler-" + std::to_string(index) + ": v\r\n";
    return headers;
  };
  const std::string body(kOneItem);
  const std::string length = "Content-Length: " + std::to_string(body.size()) + "\r\n";
  {
    TlsConnection connection(endpoint_);
    connection.send(codesHead(withFillers(96) + length) + body);
    EXPECT_EQ(connection.readResponse().status, 200);
  }
  {
    TlsConnection connection(endpoint_);
    connection.send(codesHead(withFillers(97) + length) + body);
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 431);
    EXPECT_EQ(result.body, envelope("HeaderTooLarge", "", "More than 100 header fields."));
  }
  expectNormalClientServed();
}

TEST_F(HostileHttp, OversizedHeaderLinesAndTargetsAreRefused) {
  const std::string body(kOneItem);
  const std::string length = "Content-Length: " + std::to_string(body.size()) + "\r\n";
  struct Oversized {
    std::string request;
    int status;
    std::string body;
  };
  const std::vector<Oversized> requests = {
      {codesHead("X-Long: " + std::string(1024 * 1024, 'v') + "\r\n" + length) + body, 431,  // a 1 MiB value
       envelope("HeaderTooLarge", "", "A header line is longer than 8192 bytes.")},
      {codesHead("X-" + std::string(300, 'n') + ": v\r\n" + length) + body, 431,  // a 302-byte name
       envelope("HeaderTooLarge", "", "A header name is longer than 256 characters.")},
      {"GET /healthz?" + std::string(64 * 1024, 'q') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414,  // 64 KiB target
       envelope("UriTooLong", "", "The request target is longer than 8192 bytes.")},
      {std::string(64 * 1024, 'G') + " / HTTP/1.1\r\n\r\n", 400,  // a 64 KiB method
       envelope("InvalidRequestLine", "", "The method is longer than 20 characters.")},
  };
  for (std::size_t index = 0; index < requests.size(); ++index) {
    SCOPED_TRACE(index);
    TlsConnection connection(endpoint_);
    connection.send(requests[index].request);
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, requests[index].status);
    EXPECT_EQ(result.body, requests[index].body);
    EXPECT_EQ(result.header("connection"), "Close");
    EXPECT_TRUE(connection.closedByServer());
  }
  expectNormalClientServed();
}

TEST_F(HostileHttp, BinaryGarbageInsteadOfARequestIsRefused) {
  std::string garbage;
  for (int index = 0; index < 4096; ++index) garbage.push_back(static_cast<char>((index * 131 + 7) % 256));
  TlsConnection connection(endpoint_);
  connection.send(garbage);
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 400);
  EXPECT_TRUE(connection.closedByServer());
  expectNormalClientServed();
}

}  // namespace
}  // namespace codepayload::robustness
