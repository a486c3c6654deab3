// codepayload-admin: see admin_cli.h. Settings as the server's:
// CODEPAYLOAD_DATA_DIR (default ./data), CODEPAYLOAD_DB_DIR for the migrations.
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <vector>

#include "db/file_modes.h"
#include "auth/auth_service.h"
#include "tools/admin/admin_cli.h"

int main(int argc, char** argv) {
  codepayload::filemodes::restrictNewFilesToOwner();  // D-S4: every file it creates is 0600
  std::vector<std::string_view> arguments(argv + 1, argv + argc);
  const char* dataDir = std::getenv("CODEPAYLOAD_DATA_DIR");
  return codepayload::admin::runAdmin(arguments, (dataDir != nullptr && *dataDir != '\0') ? dataDir : "./data",
                                      codepayload::auth::registryMigrationsDir(), std::cout, std::cerr);
}
