// Growing from one machine: the SQLite registry of a data directory copied
// into an empty PostgreSQL database, every table, the pepper and the signing
// keys sealed on the way under the key-encryption key, in one transaction. A
// server started on the PostgreSQL registry afterwards accepts the secrets and
// tokens issued before the move.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "app/registry.h"

namespace codepayload::app {

struct RegistryCopyReport {
  // Each table copied and its row count, in the order copied.
  std::vector<std::pair<std::string, std::size_t>> tables;
  std::size_t signingKeys = 0;
};

// Copies the SQLite registry of `from` (its registry.db, pepper and key files,
// which must exist) into the PostgreSQL registry `to` names, sealing with
// `to.keyEncryptionKeyFile`. Refuses, writing nothing, a target that already
// holds a registry's rows or secrets, or tables that are not a registry's.
// Throws RegistryConfigurationError (settings, connection, a target not
// empty) or std::runtime_error (the copy failed: nothing of it stays).
RegistryCopyReport copyRegistry(const RegistryLocation& from, const RegistryLocation& to);

}  // namespace codepayload::app
