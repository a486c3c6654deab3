#include "tools/dictionary-import/cli.h"

#include <stdlib.h>

#include <exception>
#include <memory>

#include "app/command_line.h"
#include "app/registry.h"
#include "app/version.h"
#include "common/file_bytes.h"
#include "common/json_escape.h"
#include "db/db_error.h"
#include "db/file_modes.h"
#include "plugins/builtin_plugins.h"

namespace codepayload::importer {

const char* const kUsage =
    "usage: codepayload-import [--db PATH] [--rules-dir DIR] [--allow-downgrade] --link-types FILE RELEASE.txt\n"
    "       codepayload-import [--db PATH] [--rules-dir DIR] [--allow-downgrade] --baseline FILE\n"
    "       codepayload-import --write-baseline OUT [--rules-dir DIR] --link-types FILE RELEASE.txt\n"
    "       codepayload-import --publish [--rules-dir DIR] [--allow-downgrade] --link-types FILE RELEASE.txt\n"
    "       codepayload-import --publish [--rules-dir DIR] [--allow-downgrade] --baseline FILE\n"
    "       codepayload-import --help | --version\n"
    "Imports a GS1 Barcode Syntax Dictionary release (with the GS1 link types) or the project's\n"
    "baseline into the rule database, replacing it atomically, or writes the baseline of a release.\n"
    "  --db PATH              rule database (default <data dir>/rules.db; the data dir is data.dir of\n"
    "                         codepayload.properties or $CODEPAYLOAD_DATA_DIR, default ./data)\n"
    "  --rules-dir DIR        where rules/linters/<name>.lua are looked up (default: the rules folder)\n"
    "  --link-types FILE      link-types.json (required with a release file)\n"
    "  --baseline FILE        import this baseline file instead of a release\n"
    "  --write-baseline OUT   write the baseline of RELEASE.txt to OUT instead of importing\n"
    "  --allow-downgrade      replace the rules of a newer release by an older one\n"
    "  --publish              publish the rules to the PostgreSQL registry of registry.url (or\n"
    "                         $CODEPAYLOAD_REGISTRY_URL): every instance serves them within seconds\n";

namespace {

std::vector<app::OptionSpec> importOptions() {
  std::vector<app::OptionSpec> options = app::standardOptions();
  for (const char* name : {"db", "rules-dir", "link-types", "baseline", "write-baseline"}) {
    options.push_back(app::OptionSpec{name, "", "VALUE", "", false});
  }
  options.push_back(app::OptionSpec{"allow-downgrade", "", "", "", false});
  options.push_back(app::OptionSpec{"publish", "", "", "", false});
  return options;
}

// Reads the options (app::CommandLine) and decides what to do.
class ArgumentReader {
 public:
  explicit ArgumentReader(const std::vector<std::string>& arguments) : arguments_(arguments) {}

  void read(CliCommand& command, const app::Settings& settings) {
    app::ParsedCommandLine parsed;
    try {
      parsed = app::CommandLine(importOptions()).parse(arguments_);
    } catch (const app::CommandLineError& error) {
      throw UsageError(error.what());
    }
    if (parsed.has("--help")) {
      command.mode = CliCommand::Mode::Help;
      return;
    }
    if (parsed.has("--version")) {
      command.mode = CliCommand::Mode::Version;
      return;
    }
    take(parsed, "--db", db_);
    take(parsed, "--rules-dir", rulesDir_);
    take(parsed, "--link-types", linkTypes_);
    take(parsed, "--baseline", baseline_);
    take(parsed, "--write-baseline", writeBaseline_);
    allowDowngrade_ = parsed.has("--allow-downgrade");
    publish_ = parsed.has("--publish");
    for (const std::string& argument : parsed.positional) {
      if (release_) throw UsageError("more than one release file (" + *release_ + ", " + argument + ")");
      release_ = argument;
    }
    command.options.dbPath = settings.dataDir / app::kRulesDatabaseFile;
    command.options.rulesDir = settings.rulesDir;
    command.options.schemaDir = settings.schemaDir;
    decide(command);
  }

 private:
  static void take(const app::ParsedCommandLine& parsed, const std::string& option, std::optional<std::string>& value) {
    value = parsed.value(option);
    if (value && value->empty()) throw UsageError(option + " needs a value");
  }

  void decide(CliCommand& command) const {
    if (baseline_ && writeBaseline_) throw UsageError("--baseline and --write-baseline exclude each other");
    if (publish_ && writeBaseline_) throw UsageError("--publish and --write-baseline exclude each other");
    if (publish_ && db_) throw UsageError("--publish writes no rule database here; --db does not apply");
    command.publish = publish_;
    if (baseline_) {
      if (release_) throw UsageError("--baseline takes no release file");
      if (linkTypes_) throw UsageError("--baseline takes no --link-types (the baseline contains them)");
      command.mode = CliCommand::Mode::ImportBaseline;
      command.baselineFile = *baseline_;
    } else {
      if (!release_) throw UsageError("no release file");
      if (!linkTypes_) throw UsageError("--link-types is required with a release file");
      command.options.releaseFile = *release_;
      command.options.linkTypesFile = *linkTypes_;
      if (writeBaseline_) {
        if (db_) throw UsageError("--write-baseline writes no database; --db does not apply");
        if (allowDowngrade_) throw UsageError("--write-baseline writes no database; --allow-downgrade does not apply");
        command.mode = CliCommand::Mode::WriteBaseline;
        command.writeBaselineFile = *writeBaseline_;
      } else {
        command.mode = CliCommand::Mode::ImportRelease;
      }
    }
    if (db_) command.options.dbPath = *db_;
    if (rulesDir_) command.options.rulesDir = *rulesDir_;
    if (allowDowngrade_) command.options.downgrade = Downgrade::Allow;
  }

  const std::vector<std::string>& arguments_;
  std::optional<std::string> db_, rulesDir_, linkTypes_, baseline_, writeBaseline_, release_;
  bool allowDowngrade_ = false;
  bool publish_ = false;
};

// The folder the rule database is written to, when group or others can enter it.
void warnAboutSharedDataDirectory(const std::filesystem::path& database, std::ostream& err) {
  const std::filesystem::path folder =
      database.parent_path().empty() ? std::filesystem::path(".") : database.parent_path();
  if (const std::optional<std::string> warning = filemodes::sharedDirectoryWarning(folder)) {
    err << "codepayload-import: " << *warning << '\n';
  }
}

// The summary's release and counts: `{"release":"...","ais":N,"linkTypes":N,`.
std::string summaryHead(const ImportSummary& summary) {
  std::string json = "{\"release\":";
  common::appendJsonString(json, summary.release);
  json += ",\"ais\":" + std::to_string(summary.ais);
  json += ",\"linkTypes\":" + std::to_string(summary.linkTypes) + ",";
  return json;
}

// A folder of its own under the temporary folder, removed with what it holds.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "codepayload-publish-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw ImportError(pattern + ": cannot create a scratch folder for the rule database");
    }
    path_ = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A registry that cannot take a publication: exit 78.
struct PublishConfigurationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --publish: the rule database, built in a scratch folder, published to the
// PostgreSQL registry of `settings`.
std::string publishRules(CliCommand command, const app::Settings& settings) {
  std::unique_ptr<app::Registry> registry;
  try {
    registry = app::openRegistry(app::registryLocationFrom(settings));
  } catch (const app::RegistryConfigurationError& error) {
    throw PublishConfigurationError(error.what());
  } catch (const app::SettingsError& error) {
    throw PublishConfigurationError(error.what());
  }
  const std::unique_ptr<app::PublishedReleases> releases = registry->openPublishedReleases();
  if (!releases) {
    throw PublishConfigurationError(
        "--publish: registry.url is empty, so the registry is the SQLite one of one instance, which serves the rule "
        "database an import without --publish writes; set registry.url (or CODEPAYLOAD_REGISTRY_URL) to the "
        "instances' PostgreSQL registry");
  }
  const ScratchFolder scratch;
  command.options.dbPath = scratch.path() / app::kRulesDatabaseFile;
  ImportSummary summary;
  if (command.mode == CliCommand::Mode::ImportBaseline) {
    summary = importBaseline(command.baselineFile, command.options.dbPath,
                             builtinLinterCatalog(command.options.rulesDir), command.options.schemaDir);
  } else {
    summary = importRelease(command.options, lint::builtinLinters());
  }
  const app::PublishedRelease published = releases->publish(
      summary.release, common::readFileBytes(command.options.dbPath), command.options.downgrade == Downgrade::Allow);
  std::string json = summaryHead(summary) + "\"registry\":";
  common::appendJsonString(json, registry->name());
  json += ",\"publication\":" + std::to_string(published.id) + ",\"sha256\":";
  common::appendJsonString(json, published.sha256);
  return json + "}";
}

}  // namespace

CliCommand parseCommandLine(const std::vector<std::string>& arguments, const app::Settings& settings) {
  if (arguments.empty()) throw UsageError("nothing to do");
  CliCommand command;
  ArgumentReader(arguments).read(command, settings);
  return command;
}

std::string summaryJson(const ImportSummary& summary, std::string_view outputKey) {
  std::string json = summaryHead(summary);
  common::appendJsonString(json, outputKey);
  json += ':';
  common::appendJsonString(json, summary.output.string());
  json += '}';
  return json;
}

int runCommandLine(const std::vector<std::string>& arguments, const app::Settings& settings, std::ostream& out,
                   std::ostream& err) {
  CliCommand command;
  try {
    command = parseCommandLine(arguments, settings);
  } catch (const UsageError& error) {
    err << "codepayload-import: " << error.what() << '\n' << kUsage;
    return 2;
  }
  if (command.publish) {
    try {
      out << publishRules(command, settings) << '\n';
      return 0;
    } catch (const PublishConfigurationError& error) {
      err << "codepayload-import: " << error.what() << '\n';
      return app::kExitConfig;
    } catch (const std::exception& error) {
      err << error.what() << '\n';
      return 1;
    }
  }
  try {
    switch (command.mode) {
      case CliCommand::Mode::Help: out << kUsage; return 0;
      case CliCommand::Mode::Version: out << app::versionText("codepayload-import"); return 0;
      case CliCommand::Mode::ImportRelease:
        warnAboutSharedDataDirectory(command.options.dbPath, err);
        out << summaryJson(importRelease(command.options, lint::builtinLinters()), "db") << '\n';
        return 0;
      case CliCommand::Mode::ImportBaseline:
        warnAboutSharedDataDirectory(command.options.dbPath, err);
        out << summaryJson(importBaseline(command.baselineFile, command.options.dbPath,
                                          builtinLinterCatalog(command.options.rulesDir), command.options.schemaDir,
                                          command.options.downgrade),
                           "db")
            << '\n';
        return 0;
      case CliCommand::Mode::WriteBaseline:
        out << summaryJson(writeBaseline(command.options.releaseFile, command.options.linkTypesFile,
                                         command.writeBaselineFile, builtinLinterCatalog(command.options.rulesDir)),
                           "baseline")
            << '\n';
        return 0;
    }
  } catch (const std::exception& error) {
    err << error.what() << '\n';
    return 1;
  }
  return 1;
}

}  // namespace codepayload::importer
