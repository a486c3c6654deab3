// codepayload-import: see cli.h.
#include <iostream>
#include <string>
#include <vector>

#include "tools/dictionary-import/cli.h"

int main(int argc, char** argv) {
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return codepayload::importer::runCommandLine(arguments, std::cout, std::cerr);
}
