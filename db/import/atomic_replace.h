// The importer's file replacement: common::writeFileAtomically (a temporary
// file in the same folder, flushed, renamed over the target, the folder
// flushed) plus what the importer needs around it: the target's folder is
// created, the old file's permission bits are kept, a target that is not a
// regular file is refused, SQLite's leftovers beside the temporary file are
// removed on failure, and errors are ImportErrors naming the target.
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
