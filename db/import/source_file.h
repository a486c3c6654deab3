// Reading an input file whole, with its SHA-256 (recorded in ReleaseInfo so
// every database and baseline names exactly what it was built from).
#pragma once

#include <filesystem>
#include <string>

namespace codepayload::importer {

struct SourceFile {
  std::string name;  // the file name without its folder, as used in messages
  std::string content;
  std::string sha256;  // lowercase hex
};

// Throws ImportError "<path>: cannot read: <reason>".
SourceFile readSourceFile(const std::filesystem::path& path);

std::string sha256Hex(std::string_view bytes);

}  // namespace codepayload::importer
