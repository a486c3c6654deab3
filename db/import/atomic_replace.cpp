#include "db/import/atomic_replace.h"

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "common/atomic_file.h"
#include "db/import/import_error.h"

namespace codepayload::importer {

namespace {

// What SQLite may have left beside a temporary database file.
void removeSqliteLeftovers(const std::filesystem::path& temporary) {
  if (temporary.empty()) return;
  for (const char* suffix : {"-journal", "-wal", "-shm"}) ::unlink((temporary.string() + suffix).c_str());
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

  std::filesystem::path temporary;
  try {
    common::writeFileAtomically(target, common::AtomicFileOptions{.mode = mode},
                                [&](const std::filesystem::path& path) {
                                  temporary = path;
                                  build(path);
                                });
  } catch (const common::AtomicFileError& error) {
    removeSqliteLeftovers(temporary);
    throw ImportError(target.string() + ": " + error.what());
  } catch (...) {
    removeSqliteLeftovers(temporary);
    throw;
  }
}

}  // namespace codepayload::importer
