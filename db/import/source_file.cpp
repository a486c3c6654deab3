#include "db/import/source_file.h"

#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "db/import/import_error.h"

namespace codepayload::importer {

std::string sha256Hex(std::string_view bytes) {
  Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
  engine.update(bytes.data(), bytes.size());
  return Poco::DigestEngine::digestToHex(engine.digest());
}

SourceFile readSourceFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ImportError(path.string() + ": cannot read: is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ImportError(path.string() + ": cannot read: " + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw ImportError(path.string() + ": cannot read: " + std::strerror(errno));
  SourceFile file;
  file.name = path.filename().string();
  file.content = std::move(content).str();
  file.sha256 = sha256Hex(file.content);
  return file;
}

}  // namespace codepayload::importer
