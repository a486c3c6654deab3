#include "server/data_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace codepayload::server {

namespace {

// The pid the holder wrote, or "" when it has not written it yet.
std::string holderPid(int descriptor) {
  char text[32] = {};
  const ssize_t length = ::pread(descriptor, text, sizeof text - 1, 0);
  if (length <= 0) return "";
  std::string pid(text, static_cast<std::size_t>(length));
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == '\r')) pid.pop_back();
  for (const char digit : pid) {
    if (digit < '0' || digit > '9') return "";
  }
  return pid;
}

}  // namespace

DataDirectoryLock::DataDirectoryLock(const std::filesystem::path& dataDir) {
  const std::filesystem::path lockFile = dataDir / kLockFile;
  descriptor_ = ::open(lockFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (descriptor_ < 0) {
    throw std::runtime_error("cannot open the lock file " + lockFile.string() + ": " + std::strerror(errno));
  }
  if (::flock(descriptor_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string pid = error == EWOULDBLOCK ? holderPid(descriptor_) : "";
    ::close(descriptor_);
    descriptor_ = -1;
    if (error != EWOULDBLOCK) {
      throw std::runtime_error("cannot lock " + lockFile.string() + ": " + std::strerror(error));
    }
    throw std::runtime_error("another codepayload-server" + (pid.empty() ? std::string() : " (pid " + pid + ")") +
                             " is using the data directory " + dataDir.string());
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(descriptor_, 0) != 0 ||
      ::pwrite(descriptor_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    const int error = errno;
    ::close(descriptor_);
    descriptor_ = -1;
    throw std::runtime_error("cannot write the pid into " + lockFile.string() + ": " + std::strerror(error));
  }
}

DataDirectoryLock::~DataDirectoryLock() {
  if (descriptor_ >= 0) ::close(descriptor_);  // closing the only descriptor releases the flock
}

}  // namespace codepayload::server
