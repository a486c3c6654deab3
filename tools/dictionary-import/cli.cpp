#include "tools/dictionary-import/cli.h"

#include <exception>

#include "app/command_line.h"
#include "app/version.h"
#include "common/json_escape.h"
#include "db/db_error.h"
#include "db/file_modes.h"
#include "plugins/builtin_plugins.h"

namespace codepayload::importer {

const char* const kUsage =
    "usage: codepayload-import [--db PATH] [--rules-dir DIR] [--allow-downgrade] --link-types FILE RELEASE.txt\n"
    "       codepayload-import [--db PATH] [--rules-dir DIR] [--allow-downgrade] --baseline FILE\n"
    "       codepayload-import --write-baseline OUT [--rules-dir DIR] --link-types FILE RELEASE.txt\n"
    "       codepayload-import --help | --version\n"
    "Imports a GS1 Barcode Syntax Dictionary release (with the GS1 link types) or the project's\n"
    "baseline into the rule database, replacing it atomically, or writes the baseline of a release.\n"
    "  --db PATH              rule database (default <data dir>/rules.db; the data dir is data.dir of\n"
    "                         codepayload.properties or $CODEPAYLOAD_DATA_DIR, default ./data)\n"
    "  --rules-dir DIR        where rules/linters/<name>.lua are looked up (default: the rules folder)\n"
    "  --link-types FILE      link-types.json (required with a release file)\n"
    "  --baseline FILE        import this baseline file instead of a release\n"
    "  --write-baseline OUT   write the baseline of RELEASE.txt to OUT instead of importing\n"
    "  --allow-downgrade      replace the rules of a newer release by an older one\n";

namespace {

std::vector<app::OptionSpec> importOptions() {
  std::vector<app::OptionSpec> options = app::standardOptions();
  for (const char* name : {"db", "rules-dir", "link-types", "baseline", "write-baseline"}) {
    options.push_back(app::OptionSpec{name, "", "VALUE", "", false});
  }
  options.push_back(app::OptionSpec{"allow-downgrade", "", "", "", false});
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
};

// The folder the rule database is written to, when group or others can enter it.
void warnAboutSharedDataDirectory(const std::filesystem::path& database, std::ostream& err) {
  const std::filesystem::path folder =
      database.parent_path().empty() ? std::filesystem::path(".") : database.parent_path();
  if (const std::optional<std::string> warning = filemodes::sharedDirectoryWarning(folder)) {
    err << "codepayload-import: " << *warning << '\n';
  }
}

}  // namespace

CliCommand parseCommandLine(const std::vector<std::string>& arguments, const app::Settings& settings) {
  if (arguments.empty()) throw UsageError("nothing to do");
  CliCommand command;
  ArgumentReader(arguments).read(command, settings);
  return command;
}

std::string summaryJson(const ImportSummary& summary, std::string_view outputKey) {
  std::string json = "{\"release\":";
  common::appendJsonString(json, summary.release);
  json += ",\"ais\":" + std::to_string(summary.ais);
  json += ",\"linkTypes\":" + std::to_string(summary.linkTypes) + ",";
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
