// The certificate and key the HTTPS listener presents, replaceable while the
// service runs (SIGHUP, D-V2): every new TLS handshake takes the pair current
// at that moment; connections already open keep theirs.
#pragma once

#include <openssl/ssl.h>

#include <ctime>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace codepayload::server {

class TlsCertificateStore {
 public:
  // Reads and checks the pair (checkTlsCertificate: the key matches, the
  // certificate is within its dates; the certificate file may carry the
  // chain after the leaf). Throws std::runtime_error naming the file and the
  // fault. warning() then holds checkTlsCertificate's expiry warning, if any.
  TlsCertificateStore(std::filesystem::path certificateFile, std::filesystem::path privateKeyFile, std::time_t now);
  ~TlsCertificateStore();

  TlsCertificateStore(const TlsCertificateStore&) = delete;
  TlsCertificateStore& operator=(const TlsCertificateStore&) = delete;

  // Makes each new handshake on `context` present the current pair. The store
  // must outlive the context's handshakes.
  void attachTo(SSL_CTX* context);

  // Reads both files again. On success the next handshakes present the new
  // pair and the result is its expiry warning, if any; on failure it throws
  // like the constructor and the current pair stays.
  std::optional<std::string> reload(std::time_t now);

  const std::optional<std::string>& warning() const { return warning_; }
  const std::filesystem::path& certificateFile() const { return certificateFile_; }

 private:
  struct Pair;
  static int selectCertificate(SSL* ssl, void* store);
  std::shared_ptr<const Pair> current() const;

  std::filesystem::path certificateFile_;
  std::filesystem::path privateKeyFile_;
  std::optional<std::string> warning_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Pair> current_;
};

}  // namespace codepayload::server
