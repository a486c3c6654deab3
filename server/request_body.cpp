#include "server/request_body.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequest.h>

#include <array>
#include <istream>

#include "server/request_deadlines.h"

namespace codepayload::server {

namespace {

int contentLengthHeaderCount(const Poco::Net::HTTPServerRequest& request) {
  int count = 0;
  for (auto it = request.find(Poco::Net::HTTPMessage::CONTENT_LENGTH);
       it != request.end() && Poco::icompare(it->first, Poco::Net::HTTPMessage::CONTENT_LENGTH) == 0; ++it) {
    ++count;
  }
  return count;
}

BodyReadResult readWholeBody(Poco::Net::HTTPServerRequest& request, BodyFraming framing, std::size_t limit,
                             std::string& out) {
  out.clear();
  if (framing == BodyFraming::Empty) return BodyReadResult::Complete;
  std::istream& in = request.stream();
  if (framing == BodyFraming::Length) {
    const auto length = static_cast<std::size_t>(request.getContentLength64());
    out.resize(length);
    in.read(out.data(), static_cast<std::streamsize>(length));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got != length) {
      out.resize(got);
      return BodyReadResult::Incomplete;
    }
    return BodyReadResult::Complete;
  }
  std::array<char, 16 * 1024> chunk;
  while (true) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got > limit - out.size()) return BodyReadResult::TooLarge;
    out.append(chunk.data(), got);
    if (in.eof()) return BodyReadResult::Complete;
    if (!in) return BodyReadResult::Incomplete;
  }
}

// Reads and drops a body of known size up to kDrainLimit; false when the
// connection cannot be kept (larger, unknown framing, timeout or reset).
bool drainBody(Poco::Net::HTTPServerRequest& request) {
  const BodyFraming framing = bodyFraming(request, kDrainLimit);
  if (framing == BodyFraming::Empty) return true;
  if (framing != BodyFraming::Length && framing != BodyFraming::Chunked) return false;
  try {
    std::istream& in = request.stream();
    std::array<char, 8 * 1024> sink;
    std::size_t drained = 0;
    while (drained <= kDrainLimit) {
      in.read(sink.data(), static_cast<std::streamsize>(sink.size()));
      drained += static_cast<std::size_t>(in.gcount());
      if (in.eof()) return true;
      if (!in) break;
    }
  } catch (const Poco::Exception&) {
    // A timeout or reset while draining: closing is the answer.
  }
  return false;
}

}  // namespace

BodyFraming bodyFraming(const Poco::Net::HTTPServerRequest& request, std::size_t limit) {
  const int lengthHeaders = contentLengthHeaderCount(request);
  const bool chunked = request.getChunkedTransferEncoding();
  if (lengthHeaders > 1 || (lengthHeaders == 1 && chunked)) return BodyFraming::Ambiguous;
  if (request.has(Poco::Net::HTTPMessage::TRANSFER_ENCODING) && !chunked) return BodyFraming::Ambiguous;
  if (chunked) return BodyFraming::Chunked;
  if (lengthHeaders == 1) {
    Poco::Int64 length = 0;
    try {
      length = request.getContentLength64();
    } catch (const Poco::Exception&) {
      return BodyFraming::Ambiguous;
    }
    if (length < 0) return BodyFraming::Ambiguous;
    if (static_cast<std::uint64_t>(length) > limit) return BodyFraming::TooLarge;
    return length == 0 ? BodyFraming::Empty : BodyFraming::Length;
  }
  const std::string& method = request.getMethod();
  if (method == Poco::Net::HTTPRequest::HTTP_GET || method == Poco::Net::HTTPRequest::HTTP_HEAD ||
      method == Poco::Net::HTTPRequest::HTTP_DELETE || method == Poco::Net::HTTPRequest::HTTP_OPTIONS) {
    return BodyFraming::Empty;
  }
  return BodyFraming::LengthMissing;
}

BodyReadResult readRequestBody(Poco::Net::HTTPServerRequest& request, BodyFraming framing, std::size_t limit,
                               std::string& out) {
  const BodyReadResult result = readWholeBody(request, framing, limit, out);
  markRequestReceived();
  return result;
}

void discardUnreadBody(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
  if (!drainBody(request)) response.setKeepAlive(false);
  markRequestReceived();
}

}  // namespace codepayload::server
