// The bytes of one accepted connection, plain TCP or TLS, on a non-blocking
// socket. Every call does what the socket allows at once and says what it
// would wait for, so that no thread ever waits for a peer inside it: the
// transport parks the connection in its waiting room instead
// (server/connections/waiting_room.h).
//
// TLS runs on OpenSSL's SSL object made from the server's Poco Context (its
// SSL_CTX: certificate callback, ciphers, session cache), not through Poco's
// SecureStreamSocket: Poco 1.11 cannot make that socket non-blocking (its
// inner socket stays blocking, so each "want read" waits out a timeout in an
// epoll instance of its own; decision D-S7).
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <string_view>

namespace codepayload::server {

enum class IoStatus {
  Done,       // `bytes` moved (a handshake: finished)
  WantRead,   // nothing more now: wait until the socket is readable
  WantWrite,  // nothing more now: wait until the socket is writable
  Ended,      // the peer ended its side in order (FIN, or TLS close_notify)
  Failed,     // reset, a TLS error, or a socket error
};

struct IoResult {
  IoStatus status = IoStatus::Done;
  std::size_t bytes = 0;
};

class ConnectionStream {
 public:
  // Takes `fd`, a connected socket, and makes it non-blocking; the destructor
  // closes it. With `tls`, a server-side TLS session starts on it. Throws
  // std::runtime_error when OpenSSL cannot make the session.
  ConnectionStream(int fd, SSL_CTX* tls);
  ~ConnectionStream();

  ConnectionStream(const ConnectionStream&) = delete;
  ConnectionStream& operator=(const ConnectionStream&) = delete;

  int fd() const { return fd_; }
  bool isTls() const { return ssl_ != nullptr; }

  // Goes on with the TLS handshake; Done at once for plain TCP and once done.
  IoResult handshake();
  // Reads at most `size` bytes (at least one when Done).
  IoResult read(char* data, std::size_t size);
  // Writes a prefix of `bytes` (at least one byte when Done). After WantRead
  // or WantWrite, the next call must offer the same bytes again (more may
  // follow them).
  IoResult write(std::string_view bytes);
  // Bytes TLS has decrypted and not handed out: the socket may show nothing
  // to read while these wait.
  bool hasBufferedBytes() const;

  // The end of this side: TLS close_notify (once, without waiting for the
  // peer's), then the TCP FIN. Reading goes on with discard().
  void endWriting();
  // Reads and drops what the socket holds, below TLS (after endWriting);
  // Ended at the peer's FIN.
  IoResult discard();
  // Ends both directions now, from any thread: a read or write on the
  // connection then fails.
  void shutdownBoth();

 private:
  IoResult tlsOutcome(int result, bool handshaking);

  const int fd_;
  SSL* ssl_ = nullptr;
  bool handshakeDone_ = false;
  bool writingEnded_ = false;
};

}  // namespace codepayload::server
