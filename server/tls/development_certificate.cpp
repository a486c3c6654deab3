#include "server/tls/development_certificate.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>

#include "auth/openssl_handles.h"
#include "common/atomic_file.h"
#include "db/file_modes.h"
#include "server/tls/tls_certificate_check.h"

namespace codepayload::server {

namespace {

[[noreturn]] void throwOpenSslError(const std::string& what) {
  std::string message = "development certificate: " + what;
  const unsigned long code = ERR_get_error();
  if (code != 0) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    message += ": ";
    message += text;
  }
  ERR_clear_error();
  throw std::runtime_error(message);
}

void addExtension(X509* certificate, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
  openssl::CertificateExtension extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
  if (!extension || X509_add_ext(certificate, extension.get(), -1) != 1) {
    throwOpenSslError(std::string("cannot add extension ") + value);
  }
}

std::string pemOf(const openssl::Bio& bio) {
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(length));
}

// False when the start-up check would refuse the pair or warn about it
// (expired, expiring within 30 days, not matching, unreadable).
bool passesStartupCheck(const std::filesystem::path& certificateFile, const std::filesystem::path& privateKeyFile) {
  try {
    return !checkTlsCertificate(certificateFile, privateKeyFile, std::time(nullptr)).has_value();
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace

DevelopmentCertificate ensureDevelopmentCertificate(const std::filesystem::path& dataDir) {
  DevelopmentCertificate result{dataDir / "dev-tls-cert.pem", dataDir / "dev-tls-key.pem", false};
  if (std::filesystem::is_regular_file(result.certificateFile) &&
      std::filesystem::is_regular_file(result.privateKeyFile) &&
      passesStartupCheck(result.certificateFile, result.privateKeyFile)) {
    // An older install wrote the certificate 0644.
    filemodes::restrictToOwner(result.certificateFile);
    filemodes::restrictToOwner(result.privateKeyFile);
    return result;
  }

  openssl::PrivateKey key(EVP_EC_gen("P-256"));
  if (!key) throwOpenSslError("cannot generate an EC P-256 key");

  openssl::Certificate certificate(X509_new());
  if (!certificate) throwOpenSslError("cannot allocate a certificate");
  X509_set_version(certificate.get(), 2);

  unsigned char serial[16];
  if (RAND_bytes(serial, sizeof serial) != 1) throwOpenSslError("cannot draw a serial number");
  serial[0] &= 0x7f;  // positive
  BIGNUM* serialNumber = BN_bin2bn(serial, sizeof serial, nullptr);
  if (serialNumber == nullptr ||
      BN_to_ASN1_INTEGER(serialNumber, X509_get_serialNumber(certificate.get())) == nullptr) {
    BN_free(serialNumber);
    throwOpenSslError("cannot set the serial number");
  }
  BN_free(serialNumber);

  X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(certificate.get()), 365L * 24 * 3600);
  if (X509_set_pubkey(certificate.get(), key.get()) != 1) throwOpenSslError("cannot set the public key");

  X509_NAME* name = X509_get_subject_name(certificate.get());
  const auto addName = [name](const char* field, const char* value) {
    if (X509_NAME_add_entry_by_txt(name, field, MBSTRING_ASC, reinterpret_cast<const unsigned char*>(value), -1, -1,
                                   0) != 1) {
      throwOpenSslError(std::string("cannot set the subject field ") + field);
    }
  };
  addName("O", "codepayload development");
  // Each certificate its own subject: a balancer that trusts several
  // instances' certificates from one file finds each one's by its name (a
  // shared name leaves OpenSSL trying only the first).
  static constexpr char kHex[] = "0123456789abcdef";
  std::string instance = "instance ";
  for (std::size_t i = 0; i < 8; ++i) {
    instance += kHex[serial[i] >> 4];
    instance += kHex[serial[i] & 0x0f];
  }
  addName("OU", instance.c_str());
  addName("CN", "localhost");
  if (X509_set_issuer_name(certificate.get(), name) != 1) throwOpenSslError("cannot set the issuer");

  addExtension(certificate.get(), NID_basic_constraints, "critical,CA:TRUE");
  addExtension(certificate.get(), NID_key_usage, "critical,digitalSignature,keyCertSign");
  addExtension(certificate.get(), NID_ext_key_usage, "serverAuth");
  addExtension(certificate.get(), NID_subject_key_identifier, "hash");
  addExtension(certificate.get(), NID_authority_key_identifier, "keyid:always");
  addExtension(certificate.get(), NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1");

  if (X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0) throwOpenSslError("cannot sign the certificate");

  openssl::Bio keyPem(BIO_new(BIO_s_mem()));
  openssl::Bio certificatePem(BIO_new(BIO_s_mem()));
  if (!keyPem || !certificatePem ||
      PEM_write_bio_PrivateKey(keyPem.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1 ||
      PEM_write_bio_X509(certificatePem.get(), certificate.get()) != 1) {
    throwOpenSslError("cannot encode the key or certificate as PEM");
  }
  std::filesystem::create_directories(dataDir);
  // Only the data directory lock's holder writes them: fixed temporary names.
  constexpr common::AtomicFileOptions kOwnerOnly{.mode = 0600, .temporaryName = common::TemporaryName::Fixed};
  common::writeFileAtomically(result.privateKeyFile, pemOf(keyPem), kOwnerOnly);
  common::writeFileAtomically(result.certificateFile, pemOf(certificatePem), kOwnerOnly);
  result.generated = true;
  return result;
}

}  // namespace codepayload::server
