#include "engine/suggestions.h"

#include <algorithm>
#include <vector>

#include "common/ascii.h"
#include "engine/snapshot.h"

namespace codepayload::suggest {

namespace {

constexpr std::size_t kMaxLinkTypeDistance = 2;
constexpr std::string_view kGs1Prefix = "gs1:";

using common::equalsIgnoringAsciiCase;
using common::toAsciiLower;

// Levenshtein distance ignoring case, with adjacent transpositions counted as
// one edit; stops early (returns limit + 1) once it must exceed `limit`.
std::size_t editDistance(std::string_view a, std::string_view b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<std::size_t> before(b.size() + 1);
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    std::size_t rowMinimum = current[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = toAsciiLower(a[i - 1]) == toAsciiLower(b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && toAsciiLower(a[i - 1]) == toAsciiLower(b[j - 2]) &&
          toAsciiLower(a[i - 2]) == toAsciiLower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
      rowMinimum = std::min(rowMinimum, current[j]);
    }
    if (rowMinimum > limit) return limit + 1;
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

}  // namespace

std::string linkType(std::string_view value, std::span<const std::string> selectable) {
  std::string candidate(value);
  if (!common::startsWithIgnoringAsciiCase(value, kGs1Prefix)) candidate.insert(0, kGs1Prefix);
  for (const std::string& id : selectable) {
    if (equalsIgnoringAsciiCase(id, candidate)) return id;
  }
  std::string_view term = std::string_view(candidate).substr(kGs1Prefix.size());
  const std::string* best = nullptr;
  std::size_t bestDistance = kMaxLinkTypeDistance + 1;
  bool tie = false;
  for (const std::string& id : selectable) {
    if (!id.starts_with(kGs1Prefix)) continue;
    std::size_t distance = editDistance(term, std::string_view(id).substr(kGs1Prefix.size()), kMaxLinkTypeDistance);
    if (distance < bestDistance) {
      best = &id;
      bestDistance = distance;
      tie = false;
    } else if (distance == bestDistance && best != nullptr) {
      tie = true;
    }
  }
  // A term of one or two letters is within two edits of too much to be a guess.
  if (best == nullptr || tie || term.size() <= bestDistance) return {};
  return *best;
}

std::string ai(std::string_view key, const Snapshot& rules) {
  std::string digits;
  for (char c : key) {
    if (c == '(' || c == ')' || c == ' ') continue;
    if (c == 'O' || c == 'o') {
      digits += '0';
    } else if (c == 'I' || c == 'l') {
      digits += '1';
    } else {
      digits += c;
    }
  }
  if (digits != key && rules.findAi(digits) != nullptr) return digits;
  if (digits.size() == 1 && rules.findAi("0" + digits) != nullptr) return "0" + digits;
  return {};
}

}  // namespace codepayload::suggest
