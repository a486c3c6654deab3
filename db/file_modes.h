// Who may read the files in the data directory: only the user the binaries
// run as. Every binary sets a umask of 077 first thing in main() (so SQLite's
// own -wal, -shm and -journal files are born 0600 too); where the project
// writes a file itself it also sets 0600 explicitly, and files an older
// install left readable to others (registry.db, rules.db, the development
// certificate) are tightened when they are opened. A data directory that
// group or others may enter is reported, not changed (see docs/decisions.md,
// D-S4).
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace codepayload::filemodes {

struct FileModeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The process umask every binary sets: new files 0600, new folders 0700.
inline constexpr unsigned kOwnerOnlyUmask = 077;

// Sets the process umask to kOwnerOnlyUmask. Affects every thread; call it in
// main() before anything creates a file.
void restrictNewFilesToOwner();

// One line naming `directory`, its mode and the fix when group or others have
// any permission on it; std::nullopt when they have none or it does not exist.
std::optional<std::string> sharedDirectoryWarning(const std::filesystem::path& directory);

// Removes every group and other permission bit of `file` (0644 -> 0600) when
// it exists and has any; nothing when it does not exist. Throws FileModeError
// naming the file when it cannot (e.g. another user owns it).
void restrictToOwner(const std::filesystem::path& file);

// restrictToOwner for a SQLite database and the -wal, -shm and -journal files
// beside it (SQLite gives those the database file's mode, whatever the umask).
void restrictDatabaseToOwner(const std::filesystem::path& database);

// For a database opened read-write: creates `database` empty (an empty file is
// an empty SQLite database) with mode 0600 when it does not exist, whatever
// the umask, then restrictDatabaseToOwner. Throws FileModeError.
void prepareOwnerOnlyDatabase(const std::filesystem::path& database);

}  // namespace codepayload::filemodes
