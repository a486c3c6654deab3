#include "common/memory_release.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace codepayload::common {
namespace {

std::size_t residentBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) return std::stoul(line.substr(6)) * 1024;
  }
  return 0;
}

// 64 MiB in 4 KiB blocks (below glibc's mmap threshold: they come from the
// heap), all freed but the last, which keeps the heap's top in place so that
// free() alone cannot give the memory back.
TEST(MemoryRelease, FreedHeapMemoryGoesBackToTheSystem) {
  if (!freedMemoryCanBeReturned()) {
    std::printf("skipped: malloc is not glibc's here (AddressSanitizer), nothing to give back\n");
    GTEST_SKIP();
  }
  constexpr std::size_t kBlock = 4096;
  constexpr std::size_t kBlocks = 64 * 1024 * 1024 / kBlock;
  std::vector<std::unique_ptr<char[]>> blocks;
  blocks.reserve(kBlocks);
  for (std::size_t index = 0; index < kBlocks; ++index) {
    blocks.emplace_back(new char[kBlock]);
    std::memset(blocks.back().get(), static_cast<int>(index), kBlock);
  }
  for (std::size_t index = 0; index + 1 < kBlocks; ++index) blocks[index].reset();
  const std::size_t before = residentBytes();
  returnFreedMemoryToSystem();
  const std::size_t after = residentBytes();
  std::printf("resident before %zu KiB, after %zu KiB\n", before / 1024, after / 1024);
  EXPECT_GT(before, after + 48u * 1024 * 1024);
}

TEST(ReleaseIfOver, FreesOnlyABufferOverWhatIsKeptAndSaysWhetherItWasLarge) {
  std::string small(1000, 'x');
  EXPECT_FALSE(releaseIfOver(small, 4096));
  EXPECT_EQ(small.size(), 1000u);
  std::string medium(100 * 1024, 'x');
  EXPECT_FALSE(releaseIfOver(medium, 4096));
  EXPECT_EQ(medium.capacity(), std::string().capacity());
  std::string large(kLargeBufferBytes + 1, 'x');
  EXPECT_TRUE(releaseIfOver(large, 4096));
  EXPECT_TRUE(large.empty());
}

}  // namespace
}  // namespace codepayload::common
