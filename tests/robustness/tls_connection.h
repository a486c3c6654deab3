// One HTTPS connection to a service on 127.0.0.1, opened from a chosen
// loopback source address (127.0.0.1, 127.0.0.2, ...: the whole 127/8 is local
// on Linux, so tests can play several clients whose addresses the server
// tells apart). Sends bytes exactly as given and reads responses one at a
// time, so hostile framing, trickled bytes and keep-alive reuse can be driven
// byte by byte.
#pragma once

#include <Poco/Net/Context.h>
#include <Poco/Net/SecureStreamSocket.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tests/server/support/service_harness.h"

namespace codepayload::robustness {

using server::testing::HttpCall;
using server::testing::HttpResult;

// Where a service listens: its HTTPS port on 127.0.0.1 and a TLS client
// context that trusts its certificate.
struct ServiceEndpoint {
  std::uint16_t port = 0;
  Poco::Net::Context::Ptr context;
};

// A TLS client context trusting `certificateFile` (the service's certificate).
Poco::Net::Context::Ptr trustingContext(const std::string& certificateFile);

// The request bytes of `call` (HTTP/1.1, Host 127.0.0.1, Content-Length
// when there is a body or the method is POST).
std::string requestBytes(const HttpCall& call);

class TlsConnection {
 public:
  // Connects (TCP and the TLS handshake) from `sourceAddress`. Throws
  // Poco::Exception when the connection or the handshake fails.
  explicit TlsConnection(const ServiceEndpoint& endpoint, const std::string& sourceAddress = "127.0.0.1");

  // Sends all of `bytes`; false when the server closed or reset the
  // connection first.
  bool send(std::string_view bytes);

  // Reads one response: the head, then a chunked or Content-Length body, or
  // with neither everything up to the close (an interim 1xx answer has no
  // body). Status 0 when the connection closed, or nothing came within
  // `timeout`, before a complete head; `timeout` bounds each wait for more
  // bytes.
  HttpResult readResponse(std::chrono::milliseconds timeout = std::chrono::seconds(10));

  // Reads one response, handing the body to `consume` in pieces as it
  // arrives (Content-Length, chunked, or up to the close) instead of keeping
  // it: the result's body stays empty. `complete` is set when the
  // body ended as its framing says (a chunked body with its last chunk).
  // `timeout` bounds each wait for more bytes, not the whole response.
  HttpResult readStreamedResponse(const std::function<void(std::string_view piece)>& consume, bool& complete,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(60));

  // Waits up to `wait` (at least 1 ms) for bytes or the close; true when
  // either came.
  bool readable(std::chrono::milliseconds wait);

  // True when the server closes the connection (EOF or reset) within `wait`
  // without sending anything more.
  bool closedByServer(std::chrono::milliseconds wait = std::chrono::seconds(3));

  // Closes the connection from this side.
  void close();

  // This side's address and port ("127.0.0.2:41234"), as the server sees it.
  std::string localAddress() const { return localAddress_; }

 private:
  // Appends what the socket has to the buffer, waiting until `deadline` (at
  // least 1 ms); false on EOF, reset or timeout.
  bool fill(std::chrono::steady_clock::time_point deadline);

  Poco::Net::SecureStreamSocket socket_;
  std::string localAddress_;
  std::string buffer_;  // received, not yet returned
  bool ended_ = false;  // EOF or reset seen
};

// One request on a fresh connection from `sourceAddress`; status 0 when the
// connection closed without a response.
HttpResult exchange(const ServiceEndpoint& endpoint, const HttpCall& call,
                    const std::string& sourceAddress = "127.0.0.1");

}  // namespace codepayload::robustness
