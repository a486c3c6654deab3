#include "server/tls/connection_stream.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <stdexcept>

namespace codepayload::server {

namespace {

IoResult socketOutcome(long result, IoStatus wouldBlock) {
  if (result > 0) return {IoStatus::Done, static_cast<std::size_t>(result)};
  if (result == 0) return {IoStatus::Ended, 0};
  if (errno == EAGAIN || errno == EWOULDBLOCK) return {wouldBlock, 0};
  return {IoStatus::Failed, 0};
}

int clampedSize(std::size_t size) { return static_cast<int>(std::min<std::size_t>(size, INT_MAX)); }

}  // namespace

ConnectionStream::ConnectionStream(int fd, SSL_CTX* tls) : fd_(fd) {
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags | O_NONBLOCK) != 0) {
    ::close(fd_);
    throw std::runtime_error("cannot make a connection's socket non-blocking");
  }
  // An answer goes out as soon as it is written: Nagle's algorithm would hold
  // a small write back until the client's delayed ACK (40 ms).
  const int noDelay = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &noDelay, sizeof noDelay);
  if (tls == nullptr) return;
  ssl_ = SSL_new(tls);
  if (ssl_ == nullptr || SSL_set_fd(ssl_, fd_) != 1) {
    SSL_free(ssl_);
    ::close(fd_);
    ERR_clear_error();
    throw std::runtime_error("cannot start a TLS session");
  }
  SSL_set_accept_state(ssl_);
  // Partial writes and a moving buffer: a write that stopped is offered again
  // from the first unsent byte, wherever the buffer now is. The record
  // buffers stay with the connection: releasing them when idle would cost
  // their allocation again on every request (D-S7).
  SSL_set_mode(ssl_, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

ConnectionStream::~ConnectionStream() {
  if (ssl_ != nullptr) SSL_free(ssl_);
  ::close(fd_);
}

IoResult ConnectionStream::tlsOutcome(int result, bool handshaking) {
  const int error = SSL_get_error(ssl_, result);
  const int socketError = errno;
  ERR_clear_error();
  switch (error) {
    case SSL_ERROR_WANT_READ: return {IoStatus::WantRead, 0};
    case SSL_ERROR_WANT_WRITE: return {IoStatus::WantWrite, 0};
    case SSL_ERROR_ZERO_RETURN: return {IoStatus::Ended, 0};
    case SSL_ERROR_SYSCALL:
      // The peer closed TCP without close_notify: most clients do.
      if (socketError == 0 && !handshaking) return {IoStatus::Ended, 0};
      return {IoStatus::Failed, 0};
    default: return {IoStatus::Failed, 0};
  }
}

IoResult ConnectionStream::handshake() {
  if (ssl_ == nullptr || handshakeDone_) return {IoStatus::Done, 0};
  ERR_clear_error();
  errno = 0;
  const int result = SSL_do_handshake(ssl_);
  if (result == 1) {
    handshakeDone_ = true;
    return {IoStatus::Done, 0};
  }
  return tlsOutcome(result, true);
}

IoResult ConnectionStream::read(char* data, std::size_t size) {
  if (ssl_ == nullptr) {
    while (true) {
      const long got = ::recv(fd_, data, size, 0);
      if (got < 0 && errno == EINTR) continue;
      return socketOutcome(got, IoStatus::WantRead);
    }
  }
  ERR_clear_error();
  errno = 0;
  const int got = SSL_read(ssl_, data, clampedSize(size));
  if (got > 0) return {IoStatus::Done, static_cast<std::size_t>(got)};
  return tlsOutcome(got, false);
}

IoResult ConnectionStream::write(std::string_view bytes) {
  if (ssl_ == nullptr) {
    while (true) {
      const long sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent < 0 && errno == EINTR) continue;
      if (sent == 0) return {IoStatus::WantWrite, 0};
      const IoResult result = socketOutcome(sent, IoStatus::WantWrite);
      return result.status == IoStatus::Ended ? IoResult{IoStatus::Failed, 0} : result;
    }
  }
  ERR_clear_error();
  errno = 0;
  const int sent = SSL_write(ssl_, bytes.data(), clampedSize(bytes.size()));
  if (sent > 0) return {IoStatus::Done, static_cast<std::size_t>(sent)};
  const IoResult result = tlsOutcome(sent, false);
  // A write cannot meet an orderly end: the peer is gone.
  return result.status == IoStatus::Ended ? IoResult{IoStatus::Failed, 0} : result;
}

bool ConnectionStream::hasBufferedBytes() const { return ssl_ != nullptr && SSL_pending(ssl_) > 0; }

void ConnectionStream::endWriting() {
  if (writingEnded_) return;
  writingEnded_ = true;
  if (ssl_ != nullptr && handshakeDone_) {
    ERR_clear_error();
    // One close_notify; the peer's is not awaited (it is read, and dropped,
    // below TLS by discard()).
    SSL_shutdown(ssl_);
    ERR_clear_error();
  }
  ::shutdown(fd_, SHUT_WR);
}

IoResult ConnectionStream::discard() {
  std::array<char, 16 * 1024> sink;
  std::size_t dropped = 0;
  // A fast sender never keeps the calling thread: Done after this much.
  constexpr std::size_t kMostPerCall = 1024 * 1024;
  while (dropped < kMostPerCall) {
    const long got = ::recv(fd_, sink.data(), sink.size(), 0);
    if (got < 0 && errno == EINTR) continue;
    const IoResult result = socketOutcome(got, IoStatus::WantRead);
    if (result.status != IoStatus::Done) return {result.status, dropped};
    dropped += result.bytes;
  }
  return {IoStatus::Done, dropped};
}

void ConnectionStream::shutdownBoth() { ::shutdown(fd_, SHUT_RDWR); }

}  // namespace codepayload::server
