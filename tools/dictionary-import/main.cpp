// codepayload-import: see cli.h.
#include <iostream>
#include <string>
#include <vector>

#include "db/file_modes.h"
#include "tools/dictionary-import/cli.h"

int main(int argc, char** argv) {
  codepayload::filemodes::restrictNewFilesToOwner();  // D-S4: every file it creates is 0600
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return codepayload::importer::runCommandLine(arguments, std::cout, std::cerr);
}
