#include "server/tls/tls_certificate_store.h"

#include <openssl/err.h>
#include <openssl/pem.h>

#include <stdexcept>
#include <utility>

#include "auth/openssl_handles.h"
#include "server/tls/tls_certificate_check.h"

namespace codepayload::server {

namespace {

struct FreeChain {
  void operator()(STACK_OF(X509) * chain) const { sk_X509_pop_free(chain, X509_free); }
};
using CertificateChain = std::unique_ptr<STACK_OF(X509), FreeChain>;

int noPassphrase(char*, int, int, void*) { return -1; }

openssl::Bio openPem(const std::filesystem::path& file, const std::string& what) {
  openssl::Bio bio(BIO_new_file(file.c_str(), "r"));
  if (!bio) {
    ERR_clear_error();
    throw std::runtime_error("cannot read the TLS " + what + " " + file.string() + ": cannot open the file");
  }
  return bio;
}

}  // namespace

struct TlsCertificateStore::Pair {
  openssl::Certificate leaf;
  CertificateChain chain;
  openssl::PrivateKey key;
};

TlsCertificateStore::TlsCertificateStore(std::filesystem::path certificateFile, std::filesystem::path privateKeyFile,
                                         std::time_t now)
    : certificateFile_(std::move(certificateFile)), privateKeyFile_(std::move(privateKeyFile)) {
  warning_ = reload(now);
}

TlsCertificateStore::~TlsCertificateStore() = default;

std::optional<std::string> TlsCertificateStore::reload(std::time_t now) {
  std::optional<std::string> warning = checkTlsCertificate(certificateFile_, privateKeyFile_, now);
  auto pair = std::make_shared<Pair>();
  const openssl::Bio certificatePem = openPem(certificateFile_, "certificate");
  pair->leaf.reset(PEM_read_bio_X509(certificatePem.get(), nullptr, noPassphrase, nullptr));
  pair->chain.reset(sk_X509_new_null());
  if (!pair->leaf || !pair->chain) {
    ERR_clear_error();
    throw std::runtime_error("cannot read the TLS certificate " + certificateFile_.string());
  }
  while (X509* next = PEM_read_bio_X509(certificatePem.get(), nullptr, noPassphrase, nullptr)) {
    if (sk_X509_push(pair->chain.get(), next) == 0) {
      X509_free(next);
      throw std::runtime_error("cannot read the TLS certificate " + certificateFile_.string() + ": out of memory");
    }
  }
  ERR_clear_error();  // the end of the file ends the loop with "no start line"
  const openssl::Bio keyPem = openPem(privateKeyFile_, "key");
  pair->key.reset(PEM_read_bio_PrivateKey(keyPem.get(), nullptr, noPassphrase, nullptr));
  // The files may have changed since the check read them: the pair itself must match.
  if (!pair->key || X509_check_private_key(pair->leaf.get(), pair->key.get()) != 1) {
    ERR_clear_error();
    throw std::runtime_error("the TLS key " + privateKeyFile_.string() + " does not match the certificate " +
                             certificateFile_.string());
  }
  const std::lock_guard lock(mutex_);
  current_ = std::move(pair);
  return warning;
}

std::shared_ptr<const TlsCertificateStore::Pair> TlsCertificateStore::current() const {
  const std::lock_guard lock(mutex_);
  return current_;
}

void TlsCertificateStore::attachTo(SSL_CTX* context) { SSL_CTX_set_cert_cb(context, &selectCertificate, this); }

int TlsCertificateStore::selectCertificate(SSL* ssl, void* store) {
  const std::shared_ptr<const Pair> pair = static_cast<const TlsCertificateStore*>(store)->current();
  // SSL_use_cert_and_key takes references of its own; the pair may go when this returns.
  return SSL_use_cert_and_key(ssl, pair->leaf.get(), pair->key.get(), pair->chain.get(), 1) == 1 ? 1 : 0;
}

}  // namespace codepayload::server
