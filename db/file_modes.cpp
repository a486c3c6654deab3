#include "db/file_modes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace codepayload::filemodes {

namespace {

constexpr mode_t kGroupAndOthers = S_IRWXG | S_IRWXO;

std::string octal(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& file, int error) {
  throw FileModeError(what + " " + file.string() + ": " + std::strerror(error));
}

}  // namespace

void restrictNewFilesToOwner() { ::umask(static_cast<mode_t>(kOwnerOnlyUmask)); }

std::optional<std::string> sharedDirectoryWarning(const std::filesystem::path& directory) {
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0 || (status.st_mode & kGroupAndOthers) == 0) return std::nullopt;
  return "the data directory " + directory.string() + " has mode " + octal(status.st_mode) +
         ": group or others can enter or list it (the files in it are kept 0600); run chmod 700 " + directory.string() +
         " unless a group shares it on purpose";
}

void restrictToOwner(const std::filesystem::path& file) {
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) {
    if (errno == ENOENT) return;
    fail("cannot read the mode of", file, errno);
  }
  if ((status.st_mode & kGroupAndOthers) == 0) return;
  const mode_t ownerOnly = status.st_mode & S_IRWXU;
  if (::chmod(file.c_str(), ownerOnly) != 0) fail("cannot restrict to mode " + octal(ownerOnly), file, errno);
}

void restrictDatabaseToOwner(const std::filesystem::path& database) {
  restrictToOwner(database);
  for (const char* suffix : {"-wal", "-shm", "-journal"}) restrictToOwner(database.string() + suffix);
}

void prepareOwnerOnlyDatabase(const std::filesystem::path& database) {
  const int descriptor = ::open(database.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (descriptor >= 0) {
    // The umask may have removed bits but never adds any; make the mode exact.
    const int error = ::fchmod(descriptor, 0600) == 0 ? 0 : errno;
    ::close(descriptor);
    if (error != 0) fail("cannot set mode 0600 on", database, error);
  } else if (errno != EEXIST) {
    fail("cannot create", database, errno);
  }
  restrictDatabaseToOwner(database);
}

}  // namespace codepayload::filemodes
