#include "common/edit_distance.h"

#include <algorithm>
#include <vector>

namespace codepayload::common {

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string_view nearestWithin(std::string_view text, std::span<const std::string_view> candidates,
                               std::size_t maxDistance) {
  std::string_view nearest;
  std::size_t nearestDistance = maxDistance + 1;
  for (const std::string_view candidate : candidates) {
    const std::size_t distance = editDistance(text, candidate);
    if (distance < nearestDistance) {
      nearest = candidate;
      nearestDistance = distance;
    }
  }
  return nearest;
}

}  // namespace codepayload::common
