// The registry in one PostgreSQL database that several instances share
// (registry.url): the stores on auth::RegistryDatabase::postgresql, and the
// pepper of client secrets and the token-signing keys as rows sealed under the
// key-encryption key every instance reads from its own file
// (secrets.keyEncryptionKeyFile; db/registry/postgresql/0002). Opened only by
// app/registry.cpp.
#pragma once

#include <Poco/Data/Session.h>

#include <filesystem>
#include <memory>

#include "app/registry.h"
#include "auth/key_encryption.h"
#include "auth/registry_database.h"

namespace codepayload::app {

// Connects, refuses a database that is not a registry, migrates (instances
// starting together take turns), and checks the key-encryption key against
// the registry's key check, sealing one for a new registry. Throws
// RegistryConfigurationError.
std::unique_ptr<Registry> openPostgresqlRegistry(const RegistryLocation& location);

// The key in secrets.keyEncryptionKeyFile `file`. Throws
// RegistryConfigurationError naming the setting (a missing or weak file).
auth::KeyEncryptionKey loadKeyEncryptionKey(const std::filesystem::path& file);

// A session on `database`; a server that cannot be reached or refuses the
// login throws RegistryConfigurationError ("registry.url: cannot connect to
// <name>: <why>").
Poco::Data::Session connectToRegistry(const auth::RegistryDatabase& database);

}  // namespace codepayload::app
