#include "auth/known_scopes.h"

#include <algorithm>

#include "common/edit_distance.h"

namespace codepayload::auth {

namespace {

constexpr std::size_t kTypoDistance = 3;  // further than 3 edits is no typo

constexpr bool sortedByName() {
  for (std::size_t index = 1; index < kKnownScopes.size(); ++index) {
    if (!(kKnownScopes[index - 1].name < kKnownScopes[index].name)) return false;
  }
  return true;
}
static_assert(sortedByName(), "kKnownScopes must be sorted by name, without duplicates");

}  // namespace

bool isKnownScope(std::string_view scope) {
  return std::binary_search(kKnownScopes.begin(), kKnownScopes.end(), KnownScope{scope, {}},
                            [](const KnownScope& left, const KnownScope& right) { return left.name < right.name; });
}

std::string knownScopeList() {
  std::string list;
  for (const KnownScope& scope : kKnownScopes) list.append(list.empty() ? "" : ", ").append(scope.name);
  return list;
}

std::string newClientScopesProblem(const std::vector<std::string>& scopes) {
  if (scopes.empty()) return "a client needs at least one scope (known scopes: " + knownScopeList() + ")";
  for (const std::string& scope : scopes) {
    if (isKnownScope(scope)) continue;
    std::array<std::string_view, kKnownScopes.size()> names;
    std::transform(kKnownScopes.begin(), kKnownScopes.end(), names.begin(),
                   [](const KnownScope& known) { return known.name; });
    const std::string_view nearest = common::nearestWithin(scope, names, kTypoDistance);
    std::string problem = "unknown scope \"" + scope + "\" (";
    if (!nearest.empty()) problem.append("did you mean \"").append(nearest).append("\"? ");
    return problem + "known scopes: " + knownScopeList() + ")";
  }
  return {};
}

}  // namespace codepayload::auth
