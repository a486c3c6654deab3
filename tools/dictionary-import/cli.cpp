#include "tools/dictionary-import/cli.h"

#include <exception>

#include "common/json_escape.h"
#include "db/db_error.h"
#include "db/file_modes.h"

namespace codepayload::importer {

const char* const kUsage =
    "usage: codepayload-import [--db PATH] [--rules-dir DIR] --link-types FILE RELEASE.txt\n"
    "       codepayload-import [--db PATH] [--rules-dir DIR] --baseline FILE\n"
    "       codepayload-import --write-baseline OUT [--rules-dir DIR] --link-types FILE RELEASE.txt\n"
    "Imports a GS1 Barcode Syntax Dictionary release (with the GS1 link types) or the project's\n"
    "baseline into the rule database, replacing it atomically, or writes the baseline of a release.\n"
    "  --db PATH              rule database (default $CODEPAYLOAD_DATA_DIR/rules.db, data dir ./data)\n"
    "  --rules-dir DIR        where rules/linters/<name>.lua are looked up (default: the rules folder)\n"
    "  --link-types FILE      link-types.json (required with a release file)\n"
    "  --baseline FILE        import this baseline file instead of a release\n"
    "  --write-baseline OUT   write the baseline of RELEASE.txt to OUT instead of importing\n";

namespace {

class ArgumentReader {
 public:
  explicit ArgumentReader(const std::vector<std::string>& arguments) : arguments_(arguments) {}

  void read(CliCommand& command) {
    for (index_ = 0; index_ < arguments_.size(); ++index_) {
      const std::string& argument = arguments_[index_];
      if (argument == "--help" || argument == "-h") {
        command.mode = CliCommand::Mode::Help;
        return;
      }
      if (argument == "--db") {
        take(argument, db_);
      } else if (argument == "--rules-dir") {
        take(argument, rulesDir_);
      } else if (argument == "--link-types") {
        take(argument, linkTypes_);
      } else if (argument == "--baseline") {
        take(argument, baseline_);
      } else if (argument == "--write-baseline") {
        take(argument, writeBaseline_);
      } else if (argument.starts_with("-")) {
        throw UsageError("unknown option " + argument);
      } else {
        if (release_) throw UsageError("more than one release file (" + *release_ + ", " + argument + ")");
        release_ = argument;
      }
    }
    decide(command);
  }

 private:
  void take(const std::string& option, std::optional<std::string>& value) {
    if (value) throw UsageError(option + " given twice");
    if (index_ + 1 >= arguments_.size() || arguments_[index_ + 1].empty()) throw UsageError(option + " needs a value");
    value = arguments_[++index_];
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
        command.mode = CliCommand::Mode::WriteBaseline;
        command.writeBaselineFile = *writeBaseline_;
      } else {
        command.mode = CliCommand::Mode::ImportRelease;
      }
    }
    if (db_) command.options.dbPath = *db_;
    if (rulesDir_) command.options.rulesDir = *rulesDir_;
  }

  const std::vector<std::string>& arguments_;
  std::size_t index_ = 0;
  std::optional<std::string> db_, rulesDir_, linkTypes_, baseline_, writeBaseline_, release_;
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

CliCommand parseCommandLine(const std::vector<std::string>& arguments) {
  if (arguments.empty()) throw UsageError("nothing to do");
  CliCommand command;
  ArgumentReader(arguments).read(command);
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

int runCommandLine(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  CliCommand command;
  try {
    command = parseCommandLine(arguments);
  } catch (const UsageError& error) {
    err << "codepayload-import: " << error.what() << '\n' << kUsage;
    return 2;
  }
  try {
    switch (command.mode) {
      case CliCommand::Mode::Help:
        out << kUsage;
        return 0;
      case CliCommand::Mode::ImportRelease:
        warnAboutSharedDataDirectory(command.options.dbPath, err);
        out << summaryJson(importRelease(command.options), "db") << '\n';
        return 0;
      case CliCommand::Mode::ImportBaseline:
        warnAboutSharedDataDirectory(command.options.dbPath, err);
        out << summaryJson(importBaseline(command.baselineFile, command.options.dbPath, command.options.rulesDir,
                                          command.options.schemaDir),
                           "db")
            << '\n';
        return 0;
      case CliCommand::Mode::WriteBaseline:
        out << summaryJson(writeBaseline(command.options.releaseFile, command.options.linkTypesFile,
                                         command.writeBaselineFile, command.options.rulesDir),
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
