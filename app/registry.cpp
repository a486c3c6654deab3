#include "app/registry.h"

#include "app/sqlite_registry.h"

namespace codepayload::app {

std::unique_ptr<Registry> openRegistry(const RegistryLocation& location) { return openSqliteRegistry(location); }

}  // namespace codepayload::app
