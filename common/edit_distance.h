// Levenshtein distance and the nearest of a few candidates, for naming what a
// typo meant ("did you mean ...?").
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace codepayload::common {

// The number of one-character insertions, deletions and substitutions (bytes)
// that turn `a` into `b`.
std::size_t editDistance(std::string_view a, std::string_view b);

// The candidate nearest to `text`, the first of equals, when it is at most
// `maxDistance` edits away; "" otherwise.
std::string_view nearestWithin(std::string_view text, std::span<const std::string_view> candidates,
                               std::size_t maxDistance);

}  // namespace codepayload::common
