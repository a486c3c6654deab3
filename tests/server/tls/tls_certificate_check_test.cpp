#include "server/tls/tls_certificate_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "tests/server/support/test_certificates.h"

namespace codepayload::server {
namespace {

constexpr long kDay = 24 * 3600;
// 2026-01-02T00:00:00Z
constexpr std::time_t kNow = 1767312000;

class TlsCertificateCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() / ("codepayload-certcheck-" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::filesystem::path certificate() const { return directory_ / "cert.pem"; }
  std::filesystem::path key() const { return directory_ / "key.pem"; }

  // The message checkTlsCertificate throws at kNow, or "<none>".
  std::string refusal() const {
    try {
      checkTlsCertificate(certificate(), key(), kNow);
    } catch (const std::exception& error) {
      return error.what();
    }
    return "<none>";
  }

  std::filesystem::path directory_;
};

TEST_F(TlsCertificateCheck, AcceptsAMatchingKeyWithinTheValidityDates) {
  testing::writeCertificateAndKey(certificate(), key(), kNow, -kDay, 90 * kDay);
  EXPECT_EQ(checkTlsCertificate(certificate(), key(), kNow), std::nullopt);
}

TEST_F(TlsCertificateCheck, RefusesAKeyOfAnotherCertificate) {
  testing::writeCertificateAndKey(certificate(), key(), kNow, -kDay, 90 * kDay);
  testing::writeKey(key());
  EXPECT_EQ(refusal(), "the TLS key " + key().string() + " does not match the certificate " + certificate().string());
}

TEST_F(TlsCertificateCheck, RefusesAnExpiredCertificate) {
  testing::writeCertificateAndKey(certificate(), key(), kNow, -90 * kDay, -kDay);
  EXPECT_EQ(refusal(), "the TLS certificate " + certificate().string() + " expired on 2026-01-01T00:00:00Z");
}

TEST_F(TlsCertificateCheck, RefusesACertificateNotYetValid) {
  testing::writeCertificateAndKey(certificate(), key(), kNow, 2 * kDay, 90 * kDay);
  EXPECT_EQ(refusal(), "the TLS certificate " + certificate().string() + " is not valid before 2026-01-04T00:00:00Z");
}

TEST_F(TlsCertificateCheck, WarnsWithinThirtyDaysOfExpiry) {
  testing::writeCertificateAndKey(certificate(), key(), kNow, -kDay, 29 * kDay + 3600);
  EXPECT_EQ(checkTlsCertificate(certificate(), key(), kNow),
            "the TLS certificate " + certificate().string() + " expires on 2026-01-31T01:00:00Z, in 29 days");
  testing::writeCertificateAndKey(certificate(), key(), kNow, -kDay, 30 * kDay);
  EXPECT_EQ(checkTlsCertificate(certificate(), key(), kNow), std::nullopt);
}

TEST_F(TlsCertificateCheck, NamesAnUnreadableFile) {
  EXPECT_EQ(refusal(), "cannot read the TLS certificate " + certificate().string() + ": cannot open the file");
  std::ofstream(certificate()) << "not a certificate";
  EXPECT_EQ(refusal().rfind("cannot read the TLS certificate " + certificate().string() + ": ", 0), 0u) << refusal();
  testing::writeCertificateAndKey(certificate(), key(), kNow, -kDay, 90 * kDay);
  std::ofstream(key()) << "not a key";
  EXPECT_EQ(refusal().rfind("cannot read the TLS key " + key().string() + ": ", 0), 0u) << refusal();
}

}  // namespace
}  // namespace codepayload::server
