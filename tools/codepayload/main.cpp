// codepayload: the payload engine for offline batch use.
//
//   codepayload generate [FILE] [--db PATH | --baseline FILE] [--rules-dir DIR]
//       Reads a CodesRequest (JSON) from FILE or standard input and writes the
//       CodesResponse to standard output.
//   codepayload modules [--db PATH | --baseline FILE] [--rules-dir DIR]
//       Lists the validation pipeline: each rule module, its kind, and whether
//       it is switched on (and why not).
//
// Rules: --db reads a rules database written by codepayload-import; --baseline
// reads the project's baseline text; with neither, $CODEPAYLOAD_DATA_DIR/rules.db
// (data dir default ./data) when it exists, else the shipped baseline.
// Exit codes: 0 done, 1 refused input or rules, 2 usage.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "db/rule_store.h"
#include "common/json_escape.h"
#include "engine/paths.h"
#include "engine/payload_engine.h"
#include "db/import/baseline_format.h"
#include "db/import/import_error.h"
#include "db/import/source_file.h"

namespace {

using codepayload::Dictionary;

constexpr const char* kUsage =
    "usage: codepayload generate [FILE] [--db PATH | --baseline FILE] [--rules-dir DIR]\n"
    "       codepayload modules [--db PATH | --baseline FILE] [--rules-dir DIR]\n";

struct Options {
  std::string command;
  std::optional<std::string> input;
  std::optional<std::filesystem::path> db;
  std::optional<std::filesystem::path> baseline;
  std::filesystem::path rulesDir = codepayload::rulesDir();
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Options parseArguments(int argc, char** argv) {
  if (argc < 2) throw UsageError("a command is required");
  Options options;
  options.command = argv[1];
  if (options.command != "generate" && options.command != "modules") throw UsageError("unknown command " + options.command);
  for (int i = 2; i < argc; ++i) {
    std::string argument = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(argument + " needs a value");
      return argv[++i];
    };
    if (argument == "--db") {
      options.db = value();
    } else if (argument == "--baseline") {
      options.baseline = value();
    } else if (argument == "--rules-dir") {
      options.rulesDir = value();
    } else if (argument.rfind("--", 0) == 0 || options.command != "generate" || options.input) {
      throw UsageError("unexpected argument " + argument);
    } else {
      options.input = argument;
    }
  }
  if (options.db && options.baseline) throw UsageError("--db and --baseline exclude each other");
  return options;
}

Dictionary loadDictionary(const Options& options) {
  if (options.db) return codepayload::readRules(*options.db);
  std::filesystem::path baseline = options.baseline.value_or(options.rulesDir / "baseline" /
                                                             std::string(codepayload::importer::kBaselineFileName));
  if (!options.baseline) {
    const char* dataDir = std::getenv("CODEPAYLOAD_DATA_DIR");
    std::filesystem::path db = std::filesystem::path(dataDir != nullptr && *dataDir != '\0' ? dataDir : "data") / "rules.db";
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
  void write(std::string_view piece) override { std::cout.write(piece.data(), static_cast<std::streamsize>(piece.size())); }
};

int generate(const Options& options, codepayload::SnapshotHolder& holder) {
  std::string body = readInput(options);
  codepayload::PayloadEngine engine(holder);
  StdoutSink out;
  codepayload::RequestError error{};
  if (!engine.generateJson(body, out, error)) {
    std::string envelope = "{\"errors\":[{\"code\":\"InvalidRequest\",\"path\":";
    codepayload::common::appendJsonString(envelope, error.path);
    envelope += ",\"message\":";
    codepayload::common::appendJsonString(envelope, error.message);
    envelope += "}]}\n";
    std::cerr << envelope;
    return 1;
  }
  std::cout << '\n';
  std::cout.flush();
  return std::cout.good() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parseArguments(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "codepayload: " << e.what() << "\n" << kUsage;
    return 2;
  }
  try {
    codepayload::SnapshotHolder holder(codepayload::Snapshot::build(loadDictionary(options), options.rulesDir));
    if (options.command == "modules") return listModules(*holder.current());
    return generate(options, holder);
  } catch (const std::exception& e) {
    std::cerr << "codepayload: " << e.what() << "\n";
    return 1;
  }
}
