// Self-signed EC P-256 certificates and keys written as PEM for the TLS
// certificate tests: valid from now + notBeforeOffset to now + notAfterOffset.
#pragma once

#include <ctime>
#include <filesystem>

namespace codepayload::server::testing {

// A fresh key in `keyFile` and a certificate for it in `certificateFile`.
void writeCertificateAndKey(const std::filesystem::path& certificateFile, const std::filesystem::path& keyFile,
                            std::time_t now, long notBeforeOffsetSeconds, long notAfterOffsetSeconds);
// Another fresh key (matching no certificate written before).
void writeKey(const std::filesystem::path& keyFile);

}  // namespace codepayload::server::testing
