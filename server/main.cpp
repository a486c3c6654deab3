// codepayload-server: reads the settings every binary shares (app/settings.h:
// config/codepayload.properties, overridden by CODEPAYLOAD_* environment
// variables), runs the service until SIGTERM or SIGINT, then stops gracefully.
//   codepayload-server [--help | --version]
#include <Poco/Logger.h>
#include <Poco/Util/ServerApplication.h>

#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "app/logging.h"
#include "app/settings.h"
#include "app/version.h"
#include "db/file_modes.h"
#include "server/server_config.h"
#include "server/service.h"

namespace {

constexpr const char* kProgram = "codepayload-server";
constexpr const char* kSynopsis = "[--help | --version]";
constexpr const char* kDescription =
    "Runs the GS1 code-payload service until SIGTERM or SIGINT. Settings come from "
    "$CODEPAYLOAD_CONFIG_DIR/codepayload.properties and CODEPAYLOAD_* environment variables (see that file).";

class ServerMain final : public Poco::Util::ServerApplication {
 protected:
  // The command line is read in main() below, with the parser every binary
  // shares; Poco's own option handling stays off.
  void defineOptions(Poco::Util::OptionSet&) override {}

  // Poco's Application start-up replaces the loggers' channels; ours go back on after it.
  void initialize(Poco::Util::Application& self) override {
    Poco::Util::ServerApplication::initialize(self);
    codepayload::app::configureLogging(kProgram);
  }

  int main(const std::vector<std::string>&) override {
    codepayload::server::ServerConfig config;
    try {
      config = codepayload::server::serverConfigFrom(codepayload::app::loadProcessSettings());
    } catch (const std::exception& error) {
      codepayload::app::diagnostics().error(std::string("configuration error: ") + error.what());
      return EXIT_CONFIG;
    }
    codepayload::server::CodePayloadService service(config);
    try {
      service.start();
    } catch (const std::exception& error) {
      codepayload::app::diagnostics().error(std::string("cannot start: ") + error.what());
      return EXIT_SOFTWARE;
    }
    waitForTerminationRequest();
    service.stop();
    return EXIT_OK;
  }
};

}  // namespace

int main(int argc, char** argv) {
  codepayload::app::configureLogging(kProgram);
  const codepayload::app::CommandLine commandLine(codepayload::app::standardOptions());
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  try {
    const codepayload::app::ParsedCommandLine parsed = commandLine.parse(arguments);
    if (parsed.has("--help")) {
      std::cout << commandLine.help(kProgram, kSynopsis, kDescription);
      return Poco::Util::Application::EXIT_OK;
    }
    if (parsed.has("--version")) {
      std::cout << codepayload::app::versionText(kProgram);
      return Poco::Util::Application::EXIT_OK;
    }
    if (!parsed.positional.empty()) {
      throw std::invalid_argument("unexpected argument " + parsed.positional.front());
    }
  } catch (const std::exception& error) {
    codepayload::app::diagnostics().error(error.what());
    std::cerr << commandLine.help(kProgram, kSynopsis, kDescription);
    return Poco::Util::Application::EXIT_USAGE;
  }
  codepayload::filemodes::restrictNewFilesToOwner();  // D-S4: every file it creates is 0600
  // A write to a connection the peer (or the request deadline) closed must
  // fail with EPIPE, not end the process: OpenSSL's socket BIO writes without
  // MSG_NOSIGNAL.
  std::signal(SIGPIPE, SIG_IGN);
  ServerMain application;
  return application.run(1, argv);
}
