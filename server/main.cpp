// codepayload-server: reads the configuration (config/codepayload.properties,
// overridden by CODEPAYLOAD_* environment variables), runs the service until
// SIGTERM or SIGINT, then stops gracefully.
#include <Poco/Util/ServerApplication.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "db/file_modes.h"
#include "engine/paths.h"
#include "server/server_config.h"
#include "server/service.h"

namespace {

class ServerMain final : public Poco::Util::ServerApplication {
 protected:
  int main(const std::vector<std::string>& arguments) override {
    if (!arguments.empty()) {
      std::fprintf(stderr,
                   "usage: codepayload-server\n"
                   "Settings come from $CODEPAYLOAD_CONFIG_DIR/codepayload.properties and CODEPAYLOAD_* "
                   "environment variables (see that file).\n");
      return EXIT_USAGE;
    }
    codepayload::server::ServerConfig config;
    try {
      const std::filesystem::path propertiesFile = codepayload::configDir() / "codepayload.properties";
      config = codepayload::server::loadServerConfig(
          std::filesystem::exists(propertiesFile) ? std::optional(propertiesFile) : std::nullopt,
          codepayload::server::processEnvironment());
    } catch (const std::exception& error) {
      std::fprintf(stderr, "codepayload-server: configuration error: %s\n", error.what());
      return EXIT_CONFIG;
    }
    codepayload::server::CodePayloadService service(config);
    try {
      service.start();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "codepayload-server: cannot start: %s\n", error.what());
      return EXIT_SOFTWARE;
    }
    waitForTerminationRequest();
    service.stop();
    return EXIT_OK;
  }
};

}  // namespace

int main(int argc, char** argv) {
  codepayload::filemodes::restrictNewFilesToOwner();  // D-S4: every file it creates is 0600
  // A write to a connection the peer (or the request deadline) closed must
  // fail with EPIPE, not end the process: OpenSSL's socket BIO writes without
  // MSG_NOSIGNAL.
  std::signal(SIGPIPE, SIG_IGN);
  ServerMain application;
  return application.run(argc, argv);
}
