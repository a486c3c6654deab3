// The registry in one PostgreSQL database that several instances share
// (registry.url): the stores on auth::RegistryDatabase::postgresql, and the
// pepper of client secrets and the token-signing keys as rows sealed under the
// key-encryption key every instance reads from its own file
// (secrets.keyEncryptionKeyFile; db/registry/postgresql/0002). Opened only by
// app/registry.cpp.
#pragma once

#include <memory>

#include "app/registry.h"

namespace codepayload::app {

// Connects, refuses a database that is not a registry, migrates (instances
// starting together take turns), and checks the key-encryption key against
// the registry's key check, sealing one for a new registry. Throws
// RegistryConfigurationError.
std::unique_ptr<Registry> openPostgresqlRegistry(const RegistryLocation& location);

}  // namespace codepayload::app
