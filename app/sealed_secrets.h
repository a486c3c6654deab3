// The rows of a PostgreSQL registry that hold sealed secrets
// (db/registry/postgresql/0002_installation_secrets.sql), as the registry
// (app/postgresql_registry.cpp) and the copy from SQLite
// (app/registry_copy.cpp) write and read them: their names, the associated
// data each value is sealed with, and the plaintext's wiping holder.
#pragma once

#include <openssl/crypto.h>

#include <string>
#include <string_view>

namespace codepayload::app {

inline constexpr std::string_view kKeyCheckSecret = "key-check";
inline constexpr std::string_view kPepperSecret = "client-secret-pepper";

inline std::string installationSecretContext(std::string_view name) {
  return "installation_secrets/" + std::string(name);
}
inline std::string signingKeyContext(std::string_view kid) { return "signing_keys/" + std::string(kid); }

// A secret's plaintext that wipes its bytes when it goes: a pepper, a private
// key's PEM.
struct WipedString {
  std::string text;
  ~WipedString() { OPENSSL_cleanse(text.data(), text.size()); }
};

}  // namespace codepayload::app
