// Giving freed heap memory back to the system after a large request. glibc
// keeps freed memory in its arenas (one per few threads) for reuse, and after
// a large buffer was freed it raises its mmap threshold (up to 32 MiB), so the
// next large buffers come from the arenas too: a process that served a few
// maximum-size batches at once would keep their peak resident for good.
#pragma once

#include <cstddef>
#include <string>

namespace codepayload::common {

// Returns the free pages of every malloc arena to the system (glibc
// malloc_trim(0)); takes about a millisecond per few hundred MiB of heap. Does
// nothing where malloc is not glibc's (under AddressSanitizer, whose allocator
// keeps freed memory in its quarantine by design).
void returnFreedMemoryToSystem();

// Whether returnFreedMemoryToSystem() can do anything in this build.
bool freedMemoryCanBeReturned();

// A buffer past this size served a large request: the engine's scratch and a
// connection's buffers free it instead of keeping it for the next request,
// and its freed memory is worth returning to the system.
inline constexpr std::size_t kLargeBufferBytes = 4 * 1024 * 1024;

// Frees `buffer` when its capacity is over `keep`. Returns whether it was
// over kLargeBufferBytes.
bool releaseIfOver(std::string& buffer, std::size_t keep);

}  // namespace codepayload::common
