// Reading request bodies with a limit, and leaving a keep-alive connection
// clean when a handler answers without reading the body (Poco 1.11 does not
// drain unread bodies: the next request would be parsed from them). Both end
// the request's deadline (markRequestReceived): from then on the request is
// being answered.
#pragma once

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <cstddef>
#include <string>

namespace codepayload::server {

enum class BodyFraming {
  Empty,          // no body (Content-Length: 0, or GET/HEAD without one)
  Length,         // Content-Length within the limit
  Chunked,        // Transfer-Encoding: chunked, counted while read
  TooLarge,       // Content-Length over the limit
  LengthMissing,  // a POST with neither Content-Length nor chunked encoding
  Ambiguous,      // Content-Length together with chunked, or repeated Content-Length
};

// Classifies the body from the headers, without reading anything.
BodyFraming bodyFraming(const Poco::Net::HTTPServerRequest& request, std::size_t limit);

enum class BodyReadResult {
  Complete,
  TooLarge,    // a chunked body passed the limit
  Incomplete,  // the peer closed, or the read timed out, before the end
};

// Reads the whole body into `out` (cleared first; one reservation of
// Content-Length). `framing` must be Empty, Length or Chunked.
BodyReadResult readRequestBody(Poco::Net::HTTPServerRequest& request, BodyFraming framing, std::size_t limit,
                               std::string& out);

// Bodies up to this size are read and dropped after an early answer; larger
// or unknown ones close the connection instead.
inline constexpr std::size_t kDrainLimit = 64 * 1024;

// Called before an answer that leaves the body unread: drains a body of known
// size up to kDrainLimit, otherwise turns keep-alive off so the connection
// closes after the response.
void discardUnreadBody(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);

}  // namespace codepayload::server
