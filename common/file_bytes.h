// A whole file's bytes, for files read at once (a rule database to digest or
// publish).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace codepayload::common {

// "cannot read <file>: <the system's reason>".
struct FileReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws FileReadError.
std::string readFileBytes(const std::filesystem::path& file);

}  // namespace codepayload::common
