#include "common/edit_distance.h"

#include <gtest/gtest.h>

#include <array>

namespace codepayload::common {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("write:codes", "write:codes"), 0u);
  EXPECT_EQ(editDistance("write:code", "write:codes"), 1u);    // insertion
  EXPECT_EQ(editDistance("write:codess", "write:codes"), 1u);  // deletion
  EXPECT_EQ(editDistance("wrote:codes", "write:codes"), 1u);   // substitution
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("abc", ""), 3u);
}

TEST(EditDistance, NearestWithinTakesTheClosestFirstCandidateInReach) {
  const std::array<std::string_view, 3> candidates = {"read:codes", "write:codes", "write:codex"};
  EXPECT_EQ(nearestWithin("write:code", candidates, 3), "write:codes");  // first of two at distance 1
  EXPECT_EQ(nearestWithin("red:codes", candidates, 3), "read:codes");
  EXPECT_EQ(nearestWithin("admin", candidates, 3), "");
  EXPECT_EQ(nearestWithin("write:codes", candidates, 0), "write:codes");
  EXPECT_EQ(nearestWithin("write:code", candidates, 0), "");
  EXPECT_EQ(nearestWithin("x", {}, 10), "");
}

}  // namespace
}  // namespace codepayload::common
