// Runs the real codepayload-admin executable against a data directory, as an
// operator would.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace codepayload::server::testing {

struct AdminResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

AdminResult runAdmin(const std::filesystem::path& dataDir, const std::vector<std::string>& arguments);

// The line codepayload-admin writes on stderr naming the registry it opened
// (D-U10), newline included.
std::string registryLine(const std::filesystem::path& dataDir);

// The value of a top-level string member of a JSON object printed by the admin.
std::string jsonMember(const std::string& json, const std::string& name);

}  // namespace codepayload::server::testing
