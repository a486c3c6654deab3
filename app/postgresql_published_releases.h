// The published releases of a PostgreSQL registry
// (db/registry/postgresql/0003_published_releases.sql), on a connection of
// their own. Opened by the PostgreSQL registry only.
#pragma once

#include <memory>

#include "app/published_releases.h"
#include "auth/registry_database.h"

namespace codepayload::app {

// Connects at once: throws RegistryConfigurationError when it cannot.
std::unique_ptr<PublishedReleases> openPostgresqlPublishedReleases(const auth::RegistryDatabase& database);

}  // namespace codepayload::app
