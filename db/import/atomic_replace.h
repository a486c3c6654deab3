// Replaces a file so that readers, and a crash or kill -9 at any moment, see
// either the old file or the complete new one, never a half-written one:
// the new content is built in a temporary file in the same folder, flushed to
// disk, renamed over the target, and the folder is flushed. On any error the
// target is untouched and the temporary file is removed.
#pragma once

#include <filesystem>
#include <functional>

namespace codepayload::importer {

// Who may read the new file.
enum class FileAccess {
  OwnerOnly,  // the old file's owner bits only (0600 for a new target): the rule database
  Readable,   // the old file's permission bits (0644 for a new target): the baseline
};

// Calls build(temporaryPath) to write the new content (the file exists, is
// empty and already has the mode `access` gives; build may reopen it, e.g.
// with SQLite, which gives its journals that mode, and must close it), then
// swaps it in. Creates the target's folder when missing. Rethrows what build
// throws; filesystem failures throw ImportError "<target>: <cause>".
void replaceFileAtomically(const std::filesystem::path& target, FileAccess access,
                           const std::function<void(const std::filesystem::path& temporaryPath)>& build);

}  // namespace codepayload::importer
