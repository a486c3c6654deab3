#include "common/published.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace codepayload::common {
namespace {

// Counts its live instances, so a test sees when a version is released.
struct Version {
  Version(int value, std::atomic<int>& liveCount) : number(value), alive(liveCount) { ++alive; }
  ~Version() { --alive; }
  Version(const Version&) = delete;
  Version& operator=(const Version&) = delete;

  int number;
  std::atomic<int>& alive;
};

TEST(Published, AReaderKeepsTheVersionItReadUntilItLetsGo) {
  std::atomic<int> alive{0};
  Published<Version> published(std::make_shared<const Version>(1, alive));
  std::shared_ptr<const Version> held = published.current();
  published.replace(std::make_shared<const Version>(2, alive));
  EXPECT_EQ(published.current()->number, 2);
  EXPECT_EQ(held->number, 1);
  EXPECT_EQ(alive.load(), 2);
  held.reset();
  EXPECT_EQ(alive.load(), 1);  // the old version went with its last reader
}

TEST(Published, StartsEmptyWhenDefaultConstructed) {
  std::atomic<int> alive{0};
  Published<Version> published;
  EXPECT_EQ(published.current(), nullptr);
  published.replace(std::make_shared<const Version>(7, alive));
  EXPECT_EQ(published.current()->number, 7);
}

TEST(Published, ReadersSeeEveryReplacementInOrderWhileItIsReplaced) {
  std::atomic<int> alive{0};
  constexpr int kVersions = 2000;
  Published<Version> published(std::make_shared<const Version>(0, alive));
  std::atomic<bool> done{false};
  std::atomic<int> wentBack{0};
  std::vector<std::thread> readers;
  for (int reader = 0; reader < 4; ++reader) {
    readers.emplace_back([&] {
      int last = 0;
      while (!done.load()) {
        const int number = published.current()->number;
        if (number < last) ++wentBack;
        last = number;
      }
    });
  }
  for (int number = 1; number <= kVersions; ++number) published.replace(std::make_shared<const Version>(number, alive));
  done = true;
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(wentBack.load(), 0);
  EXPECT_EQ(published.current()->number, kVersions);
  EXPECT_EQ(alive.load(), 1);  // every replaced version was released
}

}  // namespace
}  // namespace codepayload::common
