#include "common/memory_release.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace codepayload::common {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

}  // namespace

bool freedMemoryCanBeReturned() {
#if defined(__GLIBC__)
  return !kAddressSanitizer;
#else
  return false;
#endif
}

bool releaseIfOver(std::string& buffer, std::size_t keep) {
  if (buffer.capacity() <= keep) return false;
  const bool large = buffer.capacity() > kLargeBufferBytes;
  std::string().swap(buffer);
  return large;
}

void returnFreedMemoryToSystem() {
#if defined(__GLIBC__)
  if (!kAddressSanitizer) malloc_trim(0);
#endif
}

}  // namespace codepayload::common
