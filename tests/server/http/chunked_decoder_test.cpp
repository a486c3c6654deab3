// The strict chunked decoder: whole bodies, bodies fed a byte at a time,
// where the next request starts, and every malformation it must refuse.
#include "server/http/chunked_decoder.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::server {
namespace {

struct Decoded {
  ChunkedDecoder::State state;
  std::string body;
  std::size_t consumed = 0;
};

Decoded decode(const std::string& input, std::size_t limit = 1024) {
  ChunkedDecoder decoder;
  Decoded result{ChunkedDecoder::State::NeedMore, {}, 0};
  result.consumed = decoder.feed(input, &result.body, limit);
  result.state = decoder.state();
  return result;
}

TEST(ChunkedDecoder, DecodesChunksExtensionsAndTrailers) {
  const std::string next = "GET /healthz HTTP/1.1\r\n";
  const Decoded plain = decode("5\r\nhello\r\n1;name=value\r\n \r\nA\r\n0123456789\r\n0\r\n\r\n" + next);
  EXPECT_EQ(plain.state, ChunkedDecoder::State::Complete);
  EXPECT_EQ(plain.body, "hello 0123456789");
  EXPECT_EQ(plain.consumed, 47u);

  const Decoded trailers = decode("2\r\n{}\r\n0\r\nX-Sum: 1\r\nX-Other:\r\n\r\n" + next);
  EXPECT_EQ(trailers.state, ChunkedDecoder::State::Complete);
  EXPECT_EQ(trailers.body, "{}");
  EXPECT_EQ(trailers.consumed, 32u);
}

TEST(ChunkedDecoder, AByteAtATimeGivesTheSameBody) {
  const std::string input = "3\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nT: v\r\n\r\n";
  ChunkedDecoder decoder;
  std::string body;
  for (std::size_t index = 0; index < input.size(); ++index) {
    ASSERT_EQ(decoder.state(), ChunkedDecoder::State::NeedMore) << index;
    EXPECT_EQ(decoder.feed(std::string_view(input).substr(index, 1), &body, 1024), 1u);
  }
  EXPECT_EQ(decoder.state(), ChunkedDecoder::State::Complete);
  EXPECT_EQ(body, "abc0123456789abcdef");
  EXPECT_EQ(decoder.bodyBytes(), 19u);
}

TEST(ChunkedDecoder, MalformedBodiesAreRefused) {
  for (const std::string input : {
           "z\r\n",                                 // not hex
           "-1\r\n",                                // signed
           "\r\n",                                  // no size
           " 5\r\nhello\r\n0\r\n\r\n",              // whitespace before the size
           "5\nhello\r\n0\r\n\r\n",                 // bare LF after the size
           "5\r\nhello\n0\r\n\r\n",                 // bare LF after the data
           "5\r\nhelloX\r\n0\r\n\r\n",              // data longer than its size
           "5\r\nhello\r\n0\r\n\n",                 // bare LF at the end
           "5\r\nhello\r\n0\r\nX-Bad : v\r\n\r\n",  // whitespace before a trailer's colon
           "5\r\nhello\r\n0\r\nno colon\r\n\r\n",   // a trailer without a colon
           "5\r\nhello\r\n0\r\nX: a\x01\r\n\r\n",   // a control character in a trailer
           "1;a\x01\r\nx\r\n0\r\n\r\n",             // a control character in an extension
           "FFFFFFFFFFFFFFFF\r\n",                  // 16 hex digits
       }) {
    SCOPED_TRACE(::testing::PrintToString(input));
    EXPECT_EQ(decode(input).state, ChunkedDecoder::State::Malformed);
  }
}

TEST(ChunkedDecoder, TheLimitCountsEveryChunk) {
  EXPECT_EQ(decode("4\r\nabcd\r\n0\r\n\r\n", 4).state, ChunkedDecoder::State::Complete);
  EXPECT_EQ(decode("4\r\nabcd\r\n1\r\ne\r\n0\r\n\r\n", 4).state, ChunkedDecoder::State::TooLarge);
  // Refused at the size line, before any of the chunk's data.
  const Decoded huge = decode("FFFFFFFFFFFFFFF\r\nabc", 1024);
  EXPECT_EQ(huge.state, ChunkedDecoder::State::TooLarge);
  EXPECT_EQ(huge.body, "");
}

TEST(ChunkedDecoder, ADroppedBodyIsCountedButNotKept) {
  ChunkedDecoder decoder;
  EXPECT_EQ(decoder.feed("3\r\nabc\r\n0\r\n\r\n", nullptr, 1024), 13u);
  EXPECT_EQ(decoder.state(), ChunkedDecoder::State::Complete);
  EXPECT_EQ(decoder.bodyBytes(), 3u);
}

}  // namespace
}  // namespace codepayload::server
