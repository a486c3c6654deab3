#include "db/import/atomic_replace.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "db/import/import_error.h"

namespace codepayload::importer {

namespace {

[[noreturn]] void refuse(const std::filesystem::path& target, const std::string& what) {
  throw ImportError(target.string() + ": " + what + ": " + std::strerror(errno));
}

void syncPath(const std::filesystem::path& path, int flags, const std::filesystem::path& target) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) refuse(target, "cannot open " + path.string() + " to flush it");
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    refuse(target, "cannot flush " + path.string());
  }
  ::close(fd);
}

// Removes the temporary file and what SQLite may have left beside it.
void removeTemporary(const std::filesystem::path& temporary) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    ::unlink((temporary.string() + suffix).c_str());
  }
}

}  // namespace

void replaceFileAtomically(const std::filesystem::path& target, FileAccess access,
                           const std::function<void(const std::filesystem::path& temporaryPath)>& build) {
  if (target.filename().empty()) throw ImportError(target.string() + ": not a file name");
  const std::filesystem::path folder = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw ImportError(target.string() + ": cannot create folder " + folder.string() + ": " + ec.message());

  mode_t mode = access == FileAccess::OwnerOnly ? 0600 : 0644;
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0) {
    if (!S_ISREG(existing.st_mode)) throw ImportError(target.string() + ": exists and is not a regular file");
    mode = existing.st_mode & (access == FileAccess::OwnerOnly ? S_IRWXU : 07777);
  }

  // "<folder>/.<name>.new-XXXXXX": hidden, recognisable, unique.
  std::string pattern = (folder / ("." + target.filename().string() + ".new-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) refuse(target, "cannot create a temporary file in " + folder.string());
  const std::filesystem::path temporary(name.data());
  const bool modeSet = ::fchmod(fd, mode) == 0;
  const int chmodError = errno;
  ::close(fd);

  try {
    if (!modeSet) {
      errno = chmodError;
      refuse(target, "cannot set the permissions of " + temporary.string());
    }
    build(temporary);
    syncPath(temporary, O_RDONLY, target);
    if (::rename(temporary.c_str(), target.c_str()) != 0) refuse(target, "cannot rename " + temporary.string());
  } catch (...) {
    removeTemporary(temporary);
    throw;
  }
  // The rename happened; flushing the folder makes it durable.
  syncPath(folder, O_RDONLY | O_DIRECTORY, target);
}

}  // namespace codepayload::importer
