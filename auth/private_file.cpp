#include "auth/private_file.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/atomic_file.h"

namespace codepayload::auth {

namespace {

std::string describeErrno(const std::string& action, const std::filesystem::path& file, int error) {
  return action + " " + file.string() + ": " + std::strerror(error);
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int descriptor) : descriptor_(descriptor) {}
  ~FileDescriptor() {
    if (descriptor_ >= 0) ::close(descriptor_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return descriptor_; }

 private:
  int descriptor_;
};

// Reads all of an open descriptor; false with errno set on failure.
bool readAll(int descriptor, std::string& content) {
  char buffer[4096];
  for (;;) {
    const ssize_t count = ::read(descriptor, buffer, sizeof buffer);
    if (count == 0) return true;
    if (count < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    content.append(buffer, static_cast<std::size_t>(count));
  }
}

}  // namespace

std::string readPrivateFile(const std::filesystem::path& file) {
  const FileDescriptor descriptor(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (descriptor.get() < 0) throw PrivateFileError(describeErrno("cannot open", file, errno));
  struct stat status {};
  if (::fstat(descriptor.get(), &status) != 0) throw PrivateFileError(describeErrno("cannot stat", file, errno));
  if (!S_ISREG(status.st_mode)) throw PrivateFileError(file.string() + " is not a regular file");
  if ((status.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    throw ExposedPrivateFileError(file.string() + " is accessible to group or others; it must have mode 0600",
                                  static_cast<unsigned>(status.st_mode & 07777));
  }
  std::string content;
  if (!readAll(descriptor.get(), content)) {
    const int error = errno;
    OPENSSL_cleanse(content.data(), content.size());
    throw PrivateFileError(describeErrno("cannot read", file, error));
  }
  return content;
}

std::string readOrCreatePrivateFile(const std::filesystem::path& file, const std::function<std::string()>& create) {
  if (::access(file.c_str(), F_OK) == 0) return readPrivateFile(file);
  if (errno != ENOENT) throw PrivateFileError(describeErrno("cannot access", file, errno));

  std::string content = create();
  try {
    // link(2) never replaces: if another process created the file meanwhile,
    // its content is the one everybody uses.
    common::writeFileAtomically(file, content,
                                common::AtomicFileOptions{.mode = 0600, .publish = common::Publish::KeepExisting});
  } catch (const common::AtomicFileError& error) {
    OPENSSL_cleanse(content.data(), content.size());
    throw PrivateFileError(error.what());
  }
  OPENSSL_cleanse(content.data(), content.size());
  return readPrivateFile(file);
}

}  // namespace codepayload::auth
