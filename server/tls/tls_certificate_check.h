// The start-up check of the TLS certificate and key the HTTPS listener will
// present: the key belongs to the certificate, and the certificate is within
// its validity dates. One function, so that a certificate reload (SIGHUP)
// runs the same check before it swaps the TLS context.
#pragma once

#include <ctime>
#include <filesystem>
#include <optional>
#include <string>

namespace codepayload::server {

// A certificate expiring within this many days starts with a warning.
inline constexpr int kCertificateExpiryWarningDays = 30;

// Reads the first certificate of `certificateFile` (PEM) and the private key
// of `privateKeyFile` (unencrypted PEM) and checks them against `now`. Throws
// std::runtime_error with one line naming the file and what is wrong:
//   "the TLS key K does not match the certificate C"
//   "the TLS certificate C expired on 2026-01-02T00:00:00Z"
//   "the TLS certificate C is not valid before 2026-01-02T00:00:00Z"
//   "cannot read the TLS certificate C: ..." / "cannot read the TLS key K: ..."
// Returns a warning line when it expires within kCertificateExpiryWarningDays:
//   "the TLS certificate C expires on 2026-01-02T00:00:00Z, in N days"
std::optional<std::string> checkTlsCertificate(const std::filesystem::path& certificateFile,
                                               const std::filesystem::path& privateKeyFile, std::time_t now);

}  // namespace codepayload::server
