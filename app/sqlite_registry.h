// The registry on SQLite: files in the data directory, opened only by
// app/registry.cpp (and read by the tests that look behind the interfaces).
#pragma once

#include <memory>
#include <string_view>

#include "app/registry.h"

namespace codepayload::app {

inline constexpr std::string_view kRegistryDatabaseFile = "registry.db";
inline constexpr std::string_view kPepperFile = "client-secret-pepper";

std::unique_ptr<Registry> openSqliteRegistry(const RegistryLocation& location);

}  // namespace codepayload::app
