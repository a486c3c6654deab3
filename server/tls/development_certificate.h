// A self-signed TLS certificate for development and tests, made when no
// certificate is configured: EC P-256, SAN localhost / 127.0.0.1 / ::1,
// valid for one year; both files readable by their owner only (0600).
#pragma once

#include <filesystem>

namespace codepayload::server {

struct DevelopmentCertificate {
  std::filesystem::path certificateFile;  // <dataDir>/dev-tls-cert.pem
  std::filesystem::path privateKeyFile;   // <dataDir>/dev-tls-key.pem
  bool generated = false;                 // false: both files were already there
};

// Reuses the pair in `dataDir` when both files exist and pass the start-up
// check for more than 30 days (checkTlsCertificate: matching, within their
// dates, no expiry warning), removing any group or other permission an older
// install gave them; else generates a new pair
// (each file written to "<file>.tmp" with mode 0600, flushed, renamed into
// place, the folder flushed: common::writeFileAtomically).
// Throws std::runtime_error with the OpenSSL or file error.
DevelopmentCertificate ensureDevelopmentCertificate(const std::filesystem::path& dataDir);

}  // namespace codepayload::server
