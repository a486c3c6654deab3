#include "server/tls/tls_certificate_check.h"

#include <openssl/asn1.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <stdexcept>
#include <string>

#include "auth/openssl_handles.h"
#include "common/utc_time.h"

namespace codepayload::server {

namespace {

// The reason OpenSSL gave for the last failure (and clears its queue).
std::string openSslReason() {
  const unsigned long code = ERR_peek_last_error();
  std::string reason = "not in PEM format";
  if (code != 0) {
    const char* text = ERR_reason_error_string(code);
    if (text != nullptr) reason = text;
  }
  ERR_clear_error();
  return reason;
}

// Refuses to ask for a passphrase (OpenSSL would prompt on the terminal).
int noPassphrase(char*, int, int, void*) { return -1; }

openssl::Bio openFile(const std::filesystem::path& file, const std::string& what) {
  openssl::Bio bio(BIO_new_file(file.c_str(), "r"));
  if (!bio) {
    ERR_clear_error();
    throw std::runtime_error("cannot read the TLS " + what + " " + file.string() + ": cannot open the file");
  }
  return bio;
}

std::time_t secondsSinceEpoch(const ASN1_TIME* time, const std::filesystem::path& certificateFile) {
  std::tm utc{};
  if (ASN1_TIME_to_tm(time, &utc) != 1) {
    ERR_clear_error();
    throw std::runtime_error("cannot read the TLS certificate " + certificateFile.string() + ": invalid validity date");
  }
  return timegm(&utc);
}

std::string utcStamp(std::time_t seconds) { return common::utcSecondsText(seconds); }

}  // namespace

std::optional<std::string> checkTlsCertificate(const std::filesystem::path& certificateFile,
                                               const std::filesystem::path& privateKeyFile, std::time_t now) {
  const openssl::Bio certificatePem = openFile(certificateFile, "certificate");
  const openssl::Certificate certificate(PEM_read_bio_X509(certificatePem.get(), nullptr, noPassphrase, nullptr));
  if (!certificate) {
    throw std::runtime_error("cannot read the TLS certificate " + certificateFile.string() + ": " + openSslReason());
  }
  const openssl::Bio keyPem = openFile(privateKeyFile, "key");
  const openssl::PrivateKey key(PEM_read_bio_PrivateKey(keyPem.get(), nullptr, noPassphrase, nullptr));
  if (!key) {
    throw std::runtime_error("cannot read the TLS key " + privateKeyFile.string() + ": " + openSslReason());
  }
  if (X509_check_private_key(certificate.get(), key.get()) != 1) {
    ERR_clear_error();
    throw std::runtime_error("the TLS key " + privateKeyFile.string() + " does not match the certificate " +
                             certificateFile.string());
  }
  const std::time_t notBefore = secondsSinceEpoch(X509_get0_notBefore(certificate.get()), certificateFile);
  const std::time_t notAfter = secondsSinceEpoch(X509_get0_notAfter(certificate.get()), certificateFile);
  if (now < notBefore) {
    throw std::runtime_error("the TLS certificate " + certificateFile.string() + " is not valid before " +
                             utcStamp(notBefore));
  }
  if (now > notAfter) {
    throw std::runtime_error("the TLS certificate " + certificateFile.string() + " expired on " + utcStamp(notAfter));
  }
  constexpr std::time_t kDay = 24 * 3600;
  if (notAfter - now < kCertificateExpiryWarningDays * kDay) {
    const std::time_t days = (notAfter - now) / kDay;
    return "the TLS certificate " + certificateFile.string() + " expires on " + utcStamp(notAfter) + ", in " +
           std::to_string(days) + (days == 1 ? " day" : " days");
  }
  return std::nullopt;
}

}  // namespace codepayload::server
