// codepayload-server: reads the settings every binary shares (app/settings.h:
// config/codepayload.properties, overridden by CODEPAYLOAD_* environment
// variables), runs the service until SIGTERM, SIGINT or SIGQUIT, then stops
// gracefully; SIGHUP reloads the TLS certificate and checks the rules (D-V2).
// Under systemd (Type=notify) it reports READY, RELOADING, STOPPING and
// watchdog pings through sd_notify (D-V3).
//   codepayload-server [--help | --version]
// --version names the build and the rules release the data directory's rules
// database holds: the one a running instance serves (the release a shared
// registry publishes, once the instance installed it).
#include <Poco/Logger.h>
#include <Poco/Util/ServerApplication.h>

#include <pthread.h>
#include <signal.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "app/logging.h"
#include "app/registry.h"
#include "app/settings.h"
#include "app/version.h"
#include "db/db_error.h"
#include "db/file_modes.h"
#include "db/rule_store.h"
#include "db/sqlite_connection.h"
#include "server/config/server_config.h"
#include "server/service.h"

namespace {

constexpr const char* kProgram = "codepayload-server";
constexpr const char* kSynopsis = "[--help | --version]";
constexpr const char* kDescription =
    "Runs the GS1 code-payload service until SIGTERM or SIGINT; SIGHUP reloads the TLS certificate. Settings come from "
    "$CODEPAYLOAD_CONFIG_DIR/codepayload.properties and CODEPAYLOAD_* environment variables (see that file).";

// "rules release <name> (<rules database>)", or why there is none to name.
std::string servedReleaseLine() {
  std::filesystem::path database;
  try {
    database = codepayload::app::loadProcessSettings().dataDir / codepayload::app::kRulesDatabaseFile;
    if (!std::filesystem::exists(database)) {
      return "rules release none yet (" + database.string() + " is made at the first start)\n";
    }
    return "rules release " + codepayload::readRulesRelease(database).name + " (" + database.string() + ")\n";
  } catch (const std::exception& error) {
    return std::string("rules release unknown: ") + error.what() + "\n";
  }
}

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
    // Blocked before the service starts a thread: every thread inherits the
    // mask, so only the loop below ever takes these signals.
    const sigset_t signals = serviceSignals();
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    codepayload::server::CodePayloadService service(config);
    try {
      service.start();
    } catch (const codepayload::app::RegistryConfigurationError& error) {
      codepayload::app::diagnostics().error(std::string("configuration error: ") + error.what());
      sd_notifyf(0, "STATUS=configuration error: %s", error.what());
      return EXIT_CONFIG;
    } catch (const std::exception& error) {
      codepayload::app::diagnostics().error(std::string("cannot start: ") + error.what());
      sd_notifyf(0, "STATUS=cannot start: %s", error.what());
      return EXIT_SOFTWARE;
    }
    // Ready only now: the rules are loaded, the registry is open and the listener accepts.
    sd_notifyf(0, "READY=1\nSTATUS=serving on port %u", static_cast<unsigned>(service.httpsPort()));
    serveUntilStopRequested(service, signals);
    sd_notify(0, "STOPPING=1");
    service.stop();
    return EXIT_OK;
  }

 private:
  static sigset_t serviceSignals() {
    sigset_t signals;
    sigemptyset(&signals);
    for (const int signal : {SIGTERM, SIGINT, SIGQUIT, SIGHUP}) sigaddset(&signals, signal);
    return signals;
  }

  // Waits for SIGTERM, SIGINT or SIGQUIT; SIGHUP reloads (D-V2). Under a
  // systemd watchdog (WatchdogSec=, D-V3) it pings at half the interval.
  static void serveUntilStopRequested(codepayload::server::CodePayloadService& service, const sigset_t& signals) {
    using Clock = std::chrono::steady_clock;
    std::uint64_t watchdogMicroseconds = 0;
    const bool watchdog = sd_watchdog_enabled(0, &watchdogMicroseconds) > 0;
    const auto pingInterval = std::chrono::microseconds(watchdogMicroseconds / 2);
    auto nextPing = Clock::now();
    while (true) {
      int signal = 0;
      if (watchdog) {
        const Clock::time_point now = Clock::now();
        if (now >= nextPing) {
          sd_notify(0, "WATCHDOG=1");
          nextPing = now + pingInterval;
        }
        const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(nextPing - Clock::now());
        const timespec timeout{static_cast<time_t>(wait.count() / 1000000000),
                               static_cast<long>(wait.count() % 1000000000)};
        signal = sigtimedwait(&signals, nullptr, &timeout);
      } else {
        signal = sigwaitinfo(&signals, nullptr);
      }
      if (signal < 0) continue;  // the ping is due (EAGAIN), or EINTR
      if (signal != SIGHUP) return;
      timespec monotonic{};
      clock_gettime(CLOCK_MONOTONIC, &monotonic);
      sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
                 static_cast<unsigned long long>(monotonic.tv_sec) * 1000000ULL +
                     static_cast<unsigned long long>(monotonic.tv_nsec / 1000));
      service.reload();
      sd_notify(0, "READY=1");
    }
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
      std::cout << codepayload::app::versionText(kProgram) << servedReleaseLine();
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
  codepayload::sqlite::configureProcess();            // before any database is opened
  // A write to a connection the peer (or the request deadline) closed must
  // fail with EPIPE, not end the process: OpenSSL's socket BIO writes without
  // MSG_NOSIGNAL.
  std::signal(SIGPIPE, SIG_IGN);
  ServerMain application;
  return application.run(1, argv);
}
