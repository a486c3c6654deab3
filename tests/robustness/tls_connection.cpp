#include "tests/robustness/tls_connection.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/String.h>

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <sstream>

namespace codepayload::robustness {

namespace {

// A write to a connection the server has closed must fail with EPIPE, not end
// the test process with SIGPIPE.
void ignoreSigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

Poco::Timespan timespan(std::chrono::milliseconds duration) {
  return Poco::Timespan(static_cast<Poco::Timespan::TimeDiff>(duration.count()) * 1000);
}

Poco::Net::SecureStreamSocket connectFrom(const ServiceEndpoint& endpoint, const std::string& sourceAddress) {
  ignoreSigpipe();
  Poco::Net::StreamSocket plain(Poco::Net::SocketAddress::IPv4);
  plain.impl()->bind(Poco::Net::SocketAddress(sourceAddress, 0));
  plain.connect(Poco::Net::SocketAddress("127.0.0.1", endpoint.port), Poco::Timespan(5, 0));
  plain.setReceiveTimeout(Poco::Timespan(10, 0));
  plain.setSendTimeout(Poco::Timespan(10, 0));
  return Poco::Net::SecureStreamSocket::attach(plain, endpoint.context);
}

}  // namespace

Poco::Net::Context::Ptr trustingContext(const std::string& certificateFile) {
  return new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", certificateFile,
                                Poco::Net::Context::VERIFY_RELAXED);
}

std::string requestBytes(const HttpCall& call) {
  std::string bytes = call.method + " " + call.target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (const auto& [name, value] : call.headers) bytes += name + ": " + value + "\r\n";
  if (!call.body.empty() || call.method == "POST")
    bytes += "Content-Length: " + std::to_string(call.body.size()) + "\r\n";
  bytes += "\r\n";
  bytes += call.body;
  return bytes;
}

TlsConnection::TlsConnection(const ServiceEndpoint& endpoint, const std::string& sourceAddress)
    : socket_(connectFrom(endpoint, sourceAddress)), localAddress_(socket_.address().toString()) {}

bool TlsConnection::send(std::string_view bytes) {
  std::size_t sent = 0;
  try {
    while (sent < bytes.size()) {
      const int count = socket_.sendBytes(bytes.data() + sent, static_cast<int>(bytes.size() - sent));
      if (count <= 0) return false;
      sent += static_cast<std::size_t>(count);
    }
  } catch (const Poco::Exception&) {
    return false;
  }
  return true;
}

bool TlsConnection::fill(std::chrono::steady_clock::time_point deadline) {
  if (ended_) return false;
  char chunk[16 * 1024];
  // Poco's TLS socket waits out its receive timeout twice when a record holds
  // no application data (in the kernel read, then in its own poll): the
  // socket's readiness is awaited here, up to the deadline, and each read
  // given only a millisecond.
  while (socket_.available() == 0) {
    const auto left = std::max(std::chrono::milliseconds(0), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                                  deadline - std::chrono::steady_clock::now()));
    pollfd watched{socket_.impl()->sockfd(), POLLIN, 0};
    const int ready = ::poll(&watched, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    try {
      socket_.setReceiveTimeout(timespan(std::chrono::milliseconds(1)));
      const int count = socket_.receiveBytes(chunk, sizeof chunk);
      if (count <= 0) {
        ended_ = true;
        return false;
      }
      buffer_.append(chunk, static_cast<std::size_t>(count));
      return true;
    } catch (const Poco::TimeoutException&) {
      continue;  // a record without application data (a session ticket)
    } catch (const Poco::Exception&) {
      ended_ = true;  // reset, or a TLS alert: the server is gone
      return false;
    }
  }
  try {
    const int count = socket_.receiveBytes(chunk, sizeof chunk);
    if (count <= 0) {
      ended_ = true;
      return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(count));
    return true;
  } catch (const Poco::Exception&) {
    ended_ = true;
    return false;
  }
}

HttpResult TlsConnection::readResponse(std::chrono::milliseconds timeout) {
  std::string body;
  bool complete = false;
  HttpResult result = readStreamedResponse([&body](std::string_view piece) { body.append(piece); }, complete, timeout);
  result.body = std::move(body);
  return result;
}

HttpResult TlsConnection::readStreamedResponse(const std::function<void(std::string_view piece)>& consume,
                                               bool& complete, std::chrono::milliseconds timeout) {
  complete = false;
  auto more = [&] { return fill(std::chrono::steady_clock::now() + timeout); };
  HttpResult result;
  std::size_t headEnd;
  while ((headEnd = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (!more()) return result;
  }
  std::istringstream head(buffer_.substr(0, headEnd + 4));
  Poco::Net::HTTPResponse response;
  response.read(head);
  buffer_.erase(0, headEnd + 4);
  result.status = static_cast<int>(response.getStatus());
  result.reason = response.getReason();
  for (const auto& [name, value] : response) result.headers.emplace(Poco::toLower(name), value);
  if (result.status >= 100 && result.status < 200) {  // an interim answer has no body
    complete = true;
    return result;
  }

  // Hands up to `wanted` buffered bytes to `consume`; returns how many.
  auto pass = [&](std::size_t wanted) {
    const std::size_t count = std::min(wanted, buffer_.size());
    if (count > 0) consume(std::string_view(buffer_).substr(0, count));
    buffer_.erase(0, count);
    return count;
  };
  if (response.getChunkedTransferEncoding()) {
    while (true) {
      std::size_t lineEnd;
      while ((lineEnd = buffer_.find("\r\n")) == std::string::npos) {
        if (!more()) return result;
      }
      const std::string sizeLine = buffer_.substr(0, lineEnd);
      buffer_.erase(0, lineEnd + 2);
      std::size_t size = 0;
      try {
        size = std::stoul(sizeLine, nullptr, 16);
      } catch (const std::exception&) {
        return result;  // not a chunk-size line: incomplete
      }
      if (size == 0) {
        // No trailers are expected: the last chunk is followed by an empty line.
        while (buffer_.size() < 2) {
          if (!more()) return result;
        }
        complete = buffer_.compare(0, 2, "\r\n") == 0;
        buffer_.erase(0, 2);
        return result;
      }
      while (size > 0) {
        if (buffer_.empty() && !more()) return result;
        size -= pass(size);
      }
      while (buffer_.size() < 2) {
        if (!more()) return result;
      }
      if (buffer_.compare(0, 2, "\r\n") != 0) return result;
      buffer_.erase(0, 2);
    }
  }
  if (response.hasContentLength()) {
    auto left = static_cast<std::size_t>(response.getContentLength64());
    while (left > 0) {
      if (buffer_.empty() && !more()) return result;
      left -= pass(left);
    }
    complete = true;
    return result;
  }
  do {
    pass(buffer_.size());
  } while (more());
  complete = true;
  return result;
}

bool TlsConnection::readable(std::chrono::milliseconds wait) {
  if (!buffer_.empty() || ended_) return true;
  fill(std::chrono::steady_clock::now() + wait);
  return !buffer_.empty() || ended_;
}

bool TlsConnection::closedByServer(std::chrono::milliseconds wait) {
  if (!buffer_.empty()) return false;
  fill(std::chrono::steady_clock::now() + wait);
  return buffer_.empty() && ended_;
}

void TlsConnection::close() {
  try {
    socket_.close();
  } catch (const Poco::Exception&) {
    // Already reset by the server: closed either way.
  }
  ended_ = true;
}

HttpResult exchange(const ServiceEndpoint& endpoint, const HttpCall& call, const std::string& sourceAddress) {
  TlsConnection connection(endpoint, sourceAddress);
  if (!connection.send(requestBytes(call))) return HttpResult{};
  HttpResult result = connection.readResponse();
  if (result.status != 0) server::testing::recordExchange(call, result);
  return result;
}

}  // namespace codepayload::robustness
