// codepayload-admin: see admin_cli.h. Its data dir and migrations are the
// settings every binary shares (app/settings.h), so it writes the registry
// the server reads.
#include <Poco/Logger.h>

#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/logging.h"
#include "app/registry.h"
#include "app/settings.h"
#include "db/file_modes.h"
#include "tools/admin/admin_cli.h"

int main(int argc, char** argv) {
  codepayload::app::configureLogging("codepayload-admin");
  codepayload::filemodes::restrictNewFilesToOwner();  // D-S4: every file it creates is 0600
  std::vector<std::string_view> arguments(argv + 1, argv + argc);
  codepayload::app::Settings settings;
  try {
    settings = codepayload::app::loadProcessSettings();
  } catch (const std::exception& error) {
    codepayload::app::diagnostics().error(std::string("configuration error: ") + error.what());
    return codepayload::app::kExitConfig;
  }
  codepayload::admin::AdminSettings admin;
  try {
    admin.registry = codepayload::app::registryLocationFrom(settings);
    admin.tokenLifetimeSeconds = codepayload::app::integerSetting(settings, "token.ttl");
    admin.tokenLeewaySeconds = codepayload::app::integerSetting(settings, "token.leewaySeconds");
  } catch (const std::exception& error) {
    codepayload::app::diagnostics().error(std::string("configuration error: ") + error.what());
    return codepayload::app::kExitConfig;
  }
  return codepayload::admin::runAdmin(arguments, admin, std::cin, std::cout, std::cerr);
}
