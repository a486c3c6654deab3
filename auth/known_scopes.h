// The scopes this server knows: the interface specification's scope table
// (Authentication 7). A client is created only with known scopes, and with at
// least one (docs/decisions.md D-U9): a typo such as write:code, or no scope
// at all, would make a client whose every token is refused.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::auth {

struct KnownScope {
  std::string_view name;
  std::string_view grants;  // what a token carrying it may do
};

inline constexpr std::string_view kReadCodesScope = "read:codes";
inline constexpr std::string_view kWriteCodesScope = "write:codes";

// Sorted by name.
inline constexpr std::array<KnownScope, 2> kKnownScopes = {{
    {kReadCodesScope, "POST /codes/parse"},
    {kWriteCodesScope, "POST /codes"},
}};

bool isKnownScope(std::string_view scope);

// The known scope names, comma-separated ("read:codes, write:codes"), for messages.
std::string knownScopeList();

// Why `scopes` cannot be given to a new client, or "" when they can: none at
// all -> "a client needs at least one scope (known scopes: read:codes,
// write:codes)"; the first unknown one -> "unknown scope \"write:code\" (did
// you mean \"write:codes\"? known scopes: read:codes, write:codes)", the suggestion only for a known
// scope at most 3 edits away. Shape, count and duplicates are the registry's
// checks (isValidScope).
std::string newClientScopesProblem(const std::vector<std::string>& scopes);

}  // namespace codepayload::auth
