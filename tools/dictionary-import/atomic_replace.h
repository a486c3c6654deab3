// Replaces a file so that readers, and a crash or kill -9 at any moment, see
// either the old file or the complete new one, never a half-written one:
// the new content is built in a temporary file in the same folder, flushed to
// disk, renamed over the target, and the folder is flushed. On any error the
// target is untouched and the temporary file is removed.
#pragma once

#include <filesystem>
#include <functional>

namespace codepayload::importer {

// Calls build(temporaryPath) to write the new content (the file exists and is
// empty; build may reopen it, e.g. with SQLite, and must close it), then swaps
// it in. The new file keeps the old one's permission bits (0644 for a new
// target). Creates the target's folder when missing. Rethrows what build
// throws; filesystem failures throw ImportError "<target>: <cause>".
void replaceFileAtomically(const std::filesystem::path& target,
                           const std::function<void(const std::filesystem::path& temporaryPath)>& build);

}  // namespace codepayload::importer
