// Small secret files in the data directory (the pepper, the signing key):
// created atomically with mode 0600 on first use, refused when readable by
// group or others. Internal to codepayload_auth.
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

namespace codepayload::auth {

struct PrivateFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The file's mode gives group or others some access; `mode` is its permission
// bits (st_mode & 07777), so a caller can name them in its own message.
struct ExposedPrivateFileError : PrivateFileError {
  ExposedPrivateFileError(const std::string& message, unsigned fileMode) : PrivateFileError(message), mode(fileMode) {}
  unsigned mode;
};

// Returns the content of `file`. When it does not exist, writes `create()` to
// a temporary file (0600) in the same directory, flushes it, and links it into
// place; if another process linked first, its file wins and is returned. The
// directory must exist. Throws PrivateFileError.
std::string readOrCreatePrivateFile(const std::filesystem::path& file, const std::function<std::string()>& create);

// Reads an existing private file; throws PrivateFileError when it is missing
// or unreadable, ExposedPrivateFileError when its mode gives group/others any
// access.
std::string readPrivateFile(const std::filesystem::path& file);

}  // namespace codepayload::auth
