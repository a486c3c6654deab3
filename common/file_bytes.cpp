#include "common/file_bytes.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace codepayload::common {

std::string readFileBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw FileReadError("cannot read " + file.string() + ": " + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw FileReadError("cannot read " + file.string() + ": " + std::strerror(errno));
  return std::move(content).str();
}

}  // namespace codepayload::common
