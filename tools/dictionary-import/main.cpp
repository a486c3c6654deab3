// codepayload-import: see cli.h.
#include <Poco/Logger.h>

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/logging.h"
#include "app/settings.h"
#include "db/file_modes.h"
#include "tools/dictionary-import/cli.h"

int main(int argc, char** argv) {
  codepayload::app::configureLogging("codepayload-import");
  codepayload::filemodes::restrictNewFilesToOwner();  // D-S4: every file it creates is 0600
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  codepayload::app::Settings settings;
  try {
    settings = codepayload::app::loadProcessSettings();
  } catch (const std::exception& error) {
    codepayload::app::diagnostics().error(std::string("configuration error: ") + error.what());
    return codepayload::app::kExitConfig;
  }
  return codepayload::importer::runCommandLine(arguments, settings, std::cout, std::cerr);
}
