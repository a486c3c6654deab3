#include "accounts/account_store.h"

#include <initializer_list>

namespace codepayload::accounts {

std::string_view roleName(Role role) {
  switch (role) {
    case Role::Owner: return "owner";
    case Role::Developer: return "developer";
    case Role::Viewer: return "viewer";
  }
  return "viewer";
}

std::optional<Role> parseRole(std::string_view name) {
  for (const Role role : {Role::Owner, Role::Developer, Role::Viewer}) {
    if (roleName(role) == name) return role;
  }
  return std::nullopt;
}

}  // namespace codepayload::accounts
