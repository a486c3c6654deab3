// codepayload: the payload engine for offline batch use.
//
//   codepayload generate [FILE] [--db PATH | --baseline FILE] [--rules-dir DIR] [--allow-failures]
//       Reads a CodesRequest (JSON) from FILE or standard input and writes the
//       CodesResponse to standard output.
//   codepayload modules [--db PATH | --baseline FILE] [--rules-dir DIR]
//       Lists the validation pipeline: each rule module, its kind, and whether
//       it is switched on (and why not).
//   codepayload --help | --version
//
// Rules: --db reads a rules database written by codepayload-import; --baseline
// reads the project's baseline text; with neither, <data dir>/rules.db when it
// exists, else the shipped baseline. The data dir, the rules folder and
// limits.maxItems (a batch over it is refused as the server refuses it) are
// the settings every binary shares (app/settings.h).
// Exit codes (docs/decisions.md D-U10): 0 done (for generate: every item
// generated); 1 the request refused as a whole (stderr: the server's error
// envelope with its code, InvalidJson, MissingField, WrongType or
// TooManyItems), or input, rules or output that cannot be used; 2 usage;
// 3 generate wrote the response but at least one item is in its `failures`
// (--allow-failures makes that 0); 78 settings refused.
#include <Poco/Logger.h>

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "app/logging.h"
#include "app/request_error_code.h"
#include "app/settings.h"
#include "app/version.h"
#include "common/json_escape.h"
#include "db/import/baseline_format.h"
#include "db/import/import_error.h"
#include "db/import/source_file.h"
#include "db/rule_store.h"
#include "engine/json_writer.h"
#include "engine/payload_engine.h"
#include "plugins/builtin_plugins.h"

namespace {

using codepayload::Dictionary;

constexpr const char* kUsage =
    "usage: codepayload generate [FILE] [--db PATH | --baseline FILE] [--rules-dir DIR] [--allow-failures]\n"
    "       codepayload modules [--db PATH | --baseline FILE] [--rules-dir DIR]\n"
    "       codepayload --help | --version\n"
    "Exit status: 0 done, 1 request, input or rules refused, 2 usage, 3 some items failed\n"
    "(generate; --allow-failures makes that 0), 78 settings refused.\n";

constexpr int kExitItemsFailed = 3;

struct Options {
  std::string command;
  std::optional<std::string> input;
  std::optional<std::filesystem::path> db;
  std::optional<std::filesystem::path> baseline;
  std::filesystem::path rulesDir;
  std::filesystem::path dataDir;
  std::size_t maxItems = 0;
  bool allowFailures = false;
  bool help = false;
  bool version = false;
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Options parseArguments(const std::vector<std::string>& arguments, const codepayload::app::Settings& settings) {
  std::vector<codepayload::app::OptionSpec> specs = codepayload::app::standardOptions();
  for (const char* name : {"db", "baseline", "rules-dir"}) specs.push_back({name, "", "VALUE", "", false});
  specs.push_back({"allow-failures", "", "", "", false});
  codepayload::app::ParsedCommandLine parsed;
  try {
    parsed = codepayload::app::CommandLine(std::move(specs)).parse(arguments);
  } catch (const codepayload::app::CommandLineError& error) {
    if (error.kind == codepayload::app::CommandLineError::Kind::UnknownOption) {
      throw UsageError("unexpected argument " + error.option);
    }
    throw UsageError(error.what());
  }
  Options options;
  options.help = parsed.has("--help");
  options.version = parsed.has("--version");
  if (options.help || options.version) return options;
  if (parsed.positional.empty()) throw UsageError("a command is required");
  options.command = parsed.positional[0];
  if (options.command != "generate" && options.command != "modules")
    throw UsageError("unknown command " + options.command);
  const std::size_t inputs = options.command == "generate" ? 1 : 0;
  if (parsed.positional.size() > 1 + inputs) throw UsageError("unexpected argument " + parsed.positional[1 + inputs]);
  if (parsed.positional.size() == 2 && inputs == 1) options.input = parsed.positional[1];
  if (const auto db = parsed.value("--db")) options.db = *db;
  if (const auto baseline = parsed.value("--baseline")) options.baseline = *baseline;
  options.rulesDir = parsed.value("--rules-dir").value_or(settings.rulesDir.string());
  options.dataDir = settings.dataDir;
  options.maxItems = static_cast<std::size_t>(codepayload::app::integerSetting(settings, "limits.maxItems"));
  if (options.db && options.baseline) throw UsageError("--db and --baseline exclude each other");
  options.allowFailures = parsed.has("--allow-failures");
  if (options.allowFailures && options.command != "generate") throw UsageError("--allow-failures is for generate");
  return options;
}

Dictionary loadDictionary(const Options& options) {
  if (options.db) return codepayload::readRules(*options.db);
  std::filesystem::path baseline =
      options.baseline.value_or(options.rulesDir / "baseline" / std::string(codepayload::importer::kBaselineFileName));
  if (!options.baseline) {
    const std::filesystem::path db = options.dataDir / codepayload::app::kRulesDatabaseFile;
    if (std::filesystem::exists(db)) return codepayload::readRules(db);
  }
  codepayload::importer::SourceFile file = codepayload::importer::readSourceFile(baseline);
  return codepayload::importer::parseBaseline(file.content, file.name).dictionary;
}

std::string readInput(const Options& options) {
  if (!options.input || *options.input == "-") {
    std::string text;
    char buffer[1 << 16];
    while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
      text.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
    }
    return text;
  }
  std::ifstream in(*options.input, std::ios::binary);
  if (!in) throw std::runtime_error(*options.input + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int listModules(const codepayload::Snapshot& rules) {
  std::string out = "[";
  const auto& states = rules.pipeline().states();
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (i != 0) out += ",\n ";
    out += "{\"name\":";
    codepayload::common::appendJsonString(out, states[i].name);
    out += ",\"kind\":";
    codepayload::common::appendJsonString(out, states[i].kind);
    out += states[i].enabled ? ",\"enabled\":true,\"summary\":" : ",\"enabled\":false,\"reason\":";
    codepayload::common::appendJsonString(out, states[i].reason);
    out += '}';
  }
  out += "]\n";
  std::cout << out;
  return 0;
}

// Writes the response to standard output as the engine produces it.
class StdoutSink final : public codepayload::OutputSink {
 public:
  void write(std::string_view piece) override {
    std::cout.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  }
};

int generate(const Options& options, codepayload::SnapshotHolder& holder) {
  std::string body = readInput(options);
  codepayload::PayloadEngine engine(holder, codepayload::EngineLimits{.maxItems = options.maxItems});
  StdoutSink out;
  codepayload::RequestError error{};
  codepayload::GenerateCounts counts;
  if (!engine.generateJson(body, out, error, &counts)) {
    // The server's envelope for the same body (a whole-body error has path null).
    std::string envelope = "{\"errors\":[{\"code\":";
    codepayload::common::appendJsonString(envelope, codepayload::app::requestErrorCode(error.kind));
    envelope += ",\"path\":";
    if (error.path.empty()) {
      envelope += "null";
    } else {
      codepayload::common::appendJsonString(envelope, error.path);
    }
    envelope += ",\"message\":";
    codepayload::common::appendJsonString(envelope, error.message);
    envelope += "}]}\n";
    std::cerr << envelope;
    return 1;
  }
  std::cout << '\n';
  std::cout.flush();
  if (!std::cout.good()) return 1;
  return counts.failures > 0 && !options.allowFailures ? kExitItemsFailed : 0;
}

}  // namespace

int main(int argc, char** argv) {
  codepayload::app::configureLogging("codepayload");
  codepayload::app::Settings settings;
  try {
    settings = codepayload::app::loadProcessSettings();
  } catch (const std::exception& e) {
    codepayload::app::diagnostics().error(std::string("configuration error: ") + e.what());
    return codepayload::app::kExitConfig;
  }
  Options options;
  try {
    options = parseArguments(std::vector<std::string>(argv + 1, argv + argc), settings);
  } catch (const UsageError& e) {
    codepayload::app::diagnostics().error(e.what());
    std::cerr << kUsage;
    return 2;
  }
  if (options.help) {
    std::cout << kUsage;
    return 0;
  }
  if (options.version) {
    std::cout << codepayload::app::versionText("codepayload");
    return 0;
  }
  try {
    codepayload::SnapshotHolder holder(
        codepayload::Snapshot::build(loadDictionary(options), options.rulesDir, codepayload::builtinPluginTables()));
    if (options.command == "modules") return listModules(*holder.current());
    return generate(options, holder);
  } catch (const std::exception& e) {
    codepayload::app::diagnostics().error(e.what());
    return 1;
  }
}
