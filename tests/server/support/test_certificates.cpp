#include "tests/server/support/test_certificates.h"

#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <stdexcept>

#include "auth/openssl_handles.h"

namespace codepayload::server::testing {

namespace {

openssl::PrivateKey newKey() {
  openssl::PrivateKey key(EVP_EC_gen("P-256"));
  if (!key) throw std::runtime_error("cannot generate a test key");
  return key;
}

template <typename Write>
void writePem(const std::filesystem::path& file, Write write) {
  openssl::Bio bio(BIO_new_file(file.c_str(), "w"));
  if (!bio || write(bio.get()) != 1) throw std::runtime_error("cannot write " + file.string());
}

void writeKeyPem(const std::filesystem::path& keyFile, EVP_PKEY* key) {
  writePem(keyFile,
           [key](BIO* bio) { return PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr); });
}

}  // namespace

void writeCertificateAndKey(const std::filesystem::path& certificateFile, const std::filesystem::path& keyFile,
                            std::time_t now, long notBeforeOffsetSeconds, long notAfterOffsetSeconds) {
  const openssl::PrivateKey key = newKey();
  openssl::Certificate certificate(X509_new());
  X509_set_version(certificate.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(certificate.get()), 1);
  X509_time_adj(X509_getm_notBefore(certificate.get()), notBeforeOffsetSeconds, &now);
  X509_time_adj(X509_getm_notAfter(certificate.get()), notAfterOffsetSeconds, &now);
  X509_set_pubkey(certificate.get(), key.get());
  X509_NAME* name = X509_get_subject_name(certificate.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(certificate.get(), name);
  if (X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0) throw std::runtime_error("cannot sign");
  writeKeyPem(keyFile, key.get());
  writePem(certificateFile, [&certificate](BIO* bio) { return PEM_write_bio_X509(bio, certificate.get()); });
}

void writeKey(const std::filesystem::path& keyFile) { writeKeyPem(keyFile, newKey().get()); }

}  // namespace codepayload::server::testing
