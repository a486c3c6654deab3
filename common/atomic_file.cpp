#include "common/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace codepayload::common {

namespace {

[[noreturn]] void fail(const std::string& step, const std::filesystem::path& file, int error) {
  throw AtomicFileError("cannot " + step + " " + file.string() + ": " + std::strerror(error));
}

// Closes a descriptor once, whichever way the scope is left.
class Descriptor {
 public:
  explicit Descriptor(int descriptor) : descriptor_(descriptor) {}
  ~Descriptor() { close(); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return descriptor_; }
  void reset(int descriptor) {
    close();
    descriptor_ = descriptor;
  }
  // close(2)'s result (0 when already closed).
  int close() {
    const int result = descriptor_ >= 0 ? ::close(descriptor_) : 0;
    descriptor_ = -1;
    return result;
  }

 private:
  int descriptor_;
};

// Removes the temporary file unless it was handed over.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::filesystem::path path) : path_(std::move(path)) {}
  ~TemporaryFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::filesystem::path& path() const { return path_; }
  void renamed() { path_.clear(); }

 private:
  std::filesystem::path path_;
};

// Creates the temporary file for `target` and returns its open descriptor.
int createTemporary(const std::filesystem::path& target, TemporaryName naming, std::filesystem::path& path) {
  if (naming == TemporaryName::Fixed) {
    path = target.string() + ".tmp";
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail("remove", path, errno);
    const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (descriptor < 0) fail("create", path, errno);
    return descriptor;
  }
  const std::string pattern = (target.parent_path() / ("." + target.filename().string() + ".new-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int descriptor = ::mkostemp(name.data(), O_CLOEXEC);
  if (descriptor < 0) fail("create", pattern, errno);
  path = name.data();
  return descriptor;
}

bool writeAll(int descriptor, std::string_view content) {
  while (!content.empty()) {
    const ssize_t count = ::write(descriptor, content.data(), content.size());
    if (count < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    content.remove_prefix(static_cast<std::size_t>(count));
  }
  return true;
}

void syncFolder(const std::filesystem::path& folder) {
  const Descriptor descriptor(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (descriptor.get() < 0) fail("open", folder, errno);
  if (::fsync(descriptor.get()) != 0) fail("flush", folder, errno);
}

// Both public functions: `write` fills the open temporary file, or closes it
// and calls build.
bool writeThrough(const std::filesystem::path& target, const AtomicFileOptions& options,
                  const std::function<void(Descriptor& descriptor, const std::filesystem::path& path)>& write) {
  std::filesystem::path path;
  Descriptor descriptor(createTemporary(target, options.temporaryName, path));
  TemporaryFile temporary(path);
  // The umask may have removed bits but never adds any; make the mode exact.
  if (::fchmod(descriptor.get(), static_cast<mode_t>(options.mode)) != 0) fail("set the mode of", path, errno);
  write(descriptor, path);
  if (descriptor.get() < 0) {
    // build closed it: reopen to flush what it wrote.
    descriptor.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (descriptor.get() < 0) fail("open", path, errno);
  }
  if (::fsync(descriptor.get()) != 0) fail("flush", path, errno);
  if (descriptor.close() != 0) fail("write", path, errno);

  const std::filesystem::path folder = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  if (options.publish == Publish::Replace) {
    if (::rename(path.c_str(), target.c_str()) != 0) {
      const int error = errno;  // before building the message
      fail("rename " + path.string() + " to", target, error);
    }
    temporary.renamed();
  } else if (::link(path.c_str(), target.c_str()) != 0) {
    const int error = errno;
    if (error == EEXIST) return false;  // the temporary file goes; the existing target stays
    fail("link " + path.string() + " to", target, error);
  }
  syncFolder(folder);
  return true;
}

}  // namespace

bool writeFileAtomically(const std::filesystem::path& target, const AtomicFileOptions& options,
                         const std::function<void(const std::filesystem::path& temporaryPath)>& build) {
  return writeThrough(target, options, [&build](Descriptor& descriptor, const std::filesystem::path& path) {
    if (descriptor.close() != 0) fail("close", path, errno);
    build(path);
  });
}

bool writeFileAtomically(const std::filesystem::path& target, std::string_view content,
                         const AtomicFileOptions& options) {
  return writeThrough(target, options, [content](Descriptor& descriptor, const std::filesystem::path& path) {
    if (!writeAll(descriptor.get(), content)) fail("write", path, errno);
  });
}

}  // namespace codepayload::common
