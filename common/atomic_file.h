// Writes a file so that readers, and a crash or kill -9 at any moment, see
// either the old file (or none) or the complete new one, never a half-written
// one: the new content goes to a temporary file in the target's folder, which
// is flushed to disk (fsync), put in the target's place (rename, or link when
// an existing target must win), and the folder is flushed so that the new
// name survives a power loss too.
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string_view>

namespace codepayload::common {

// "cannot <step> <file>: <the system's reason>", e.g. "cannot create
// /data/server.port.tmp: No such file or directory".
struct AtomicFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The name of the temporary file.
enum class TemporaryName {
  // "<folder>/.<name>.new-XXXXXX" (mkstemp): hidden and unique, so writers in
  // several processes never meet; a crash between creation and rename leaves
  // that hidden file behind.
  Unique,
  // "<target>.tmp", a leftover of an earlier crash removed first: only for
  // targets one process alone writes (the holder of the data directory lock).
  Fixed,
};

// How the finished file takes the target's place.
enum class Publish {
  Replace,       // rename(2) over the target (or to the new name)
  KeepExisting,  // link(2): a target that exists by then stays, the new file is dropped
};

struct AtomicFileOptions {
  unsigned mode = 0600;  // the new file's exact permission bits, whatever the umask
  TemporaryName temporaryName = TemporaryName::Unique;
  Publish publish = Publish::Replace;
};

// Creates the temporary file (empty, with exactly options.mode), calls
// build(temporaryPath) to write it (build may reopen it, e.g. with SQLite, and
// must close it), flushes it, publishes it and flushes the folder. The folder
// must exist. Returns false only when Publish::KeepExisting found a target
// already there (then nothing changed). On any failure the temporary file is
// removed, the target is untouched, and AtomicFileError is thrown or what
// build threw is rethrown. A failure to flush the folder after the rename is
// reported too, although the new file is then in place.
bool writeFileAtomically(const std::filesystem::path& target, const AtomicFileOptions& options,
                         const std::function<void(const std::filesystem::path& temporaryPath)>& build);

// The same with `content` as the new file's bytes (written without copies:
// the caller may wipe a secret afterwards).
bool writeFileAtomically(const std::filesystem::path& target, std::string_view content,
                         const AtomicFileOptions& options);

}  // namespace codepayload::common
