// codepayload: the payload engine for offline batch use.
//
//   codepayload generate [FILE] [--input-format json|csv] [--output-format json|csv] [--output FILE]
//                        [--pretty] [--allow-failures] [--db PATH | --baseline FILE] [--rules-dir DIR]
//       Reads a CodesRequest (JSON) or a CSV of definitions from FILE or
//       standard input and writes the CodesResponse (JSON) or a CSV of it.
//   codepayload parse [FILE] [--input-format json|csv|lines] [--output-format json|csv] [--output FILE]
//                     [--pretty] [--allow-failures] [--db PATH | --baseline FILE] [--rules-dir DIR]
//       Reads payloads back: a ParseRequest (JSON), one payload a line, or a
//       CSV of payloads; writes the ParseResponse (JSON) or a CSV of it.
//   codepayload modules [--db PATH | --baseline FILE] [--rules-dir DIR]
//       Lists the validation pipeline: each rule module, its kind, and whether
//       it is switched on (and why not).
//   codepayload --help | --version
//
// Formats (docs/decisions.md D-Q7..D-Q10): the input is JSON for generate and,
// for parse, JSON when it starts with '{', else payloads one a line; a FILE
// named *.csv is CSV; --input-format names it. Lines and CSV are built into
// the JSON body the engine takes (batch_input.h), so every check is the
// engine's. The output is the engine's JSON byte for byte, or with
// --output-format csv (or an --output FILE named *.csv) one CSV record per
// item in the request's order (batch_output.h); --pretty indents the JSON for
// a person (pretty_json.h). --output FILE replaces FILE
// atomically and writes nothing to standard output. At the end a summary goes
// to stderr, "codepayload: <n> generated, <m> failed in <seconds> s" (parse:
// parsed; D-Q11).
//
// Rules: --db reads a rules database written by codepayload-import; --baseline
// reads the project's baseline text; with neither, <data dir>/rules.db when it
// exists, else the shipped baseline. The data dir, the rules folder and
// limits.maxItems (a batch over it is refused as the server refuses it) are
// the settings every binary shares (app/settings.h).
// Exit codes (docs/decisions.md D-U10): 0 done (for generate and parse: every
// item accepted); 1 the request refused as a whole (stderr: the server's error
// envelope with its code, InvalidJson, MissingField, WrongType or
// TooManyItems), a line or CSV record that cannot be read (stderr: its line
// and column), or input, rules or output that cannot be used; 2 usage; 3 the
// answer was written but at least one item is in its `failures`
// (--allow-failures makes that 0); 78 settings refused.
#include <Poco/Logger.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
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
#include "common/ascii.h"
#include "common/atomic_file.h"
#include "common/json_escape.h"
#include "db/import/baseline_format.h"
#include "db/import/import_error.h"
#include "db/import/source_file.h"
#include "db/rule_store.h"
#include "engine/payload_engine.h"
#include "plugins/builtin_plugins.h"
#include "tools/codepayload/batch_input.h"
#include "tools/codepayload/batch_output.h"
#include "tools/codepayload/pretty_json.h"

namespace {

using codepayload::Dictionary;
using codepayload::cli::InputFormat;

// The synopsis (printed after a usage error) and the rest of --help.
constexpr const char* kUsage =
    "usage: codepayload generate [FILE] [--input-format json|csv] [--output-format json|csv] [--output FILE]\n"
    "                            [--pretty] [--allow-failures] [--db PATH | --baseline FILE] [--rules-dir DIR]\n"
    "       codepayload parse [FILE] [--input-format json|csv|lines] [--output-format json|csv] [--output FILE]\n"
    "                         [--pretty] [--allow-failures] [--db PATH | --baseline FILE] [--rules-dir DIR]\n"
    "       codepayload modules [--db PATH | --baseline FILE] [--rules-dir DIR]\n"
    "       codepayload --help | --version\n"
    "Exit status: 0 done, 1 request, input or rules refused, 2 usage, 3 some items failed\n"
    "(generate, parse; --allow-failures makes that 0), 78 settings refused.\n";
// What --help prints after the synopsis: what the command is for.
constexpr const char* kAbout =
    "codepayload: the service's payload engine and rules, offline. generate turns GS1 code definitions\n"
    "into the text to encode in a 2D barcode (a GS1 Digital Link URI or an element string) and its\n"
    "human readable interpretation; parse reads such a text back (as a scanner delivers it) to its AIs.\n"
    "The answers are the ones POST /codes and POST /codes/parse give.\n\n";
constexpr const char* kHelp =
    "generate: a CodesRequest (JSON) or CSV in, the CodesResponse (JSON) or CSV out.\n"
    "parse: a ParseRequest (JSON), one payload a line, or CSV in; the ParseResponse (JSON) or CSV out.\n"
    "FILE is standard input when absent or -. The input is JSON for generate; for parse JSON when it\n"
    "starts with {, else one payload a line (LF or CRLF; the line number is the reference; empty lines\n"
    "are skipped). A FILE or --output FILE named *.csv is CSV unless a format is named.\n"
    "CSV (RFC 4180) has a header row. generate's columns: reference; primaryKey (the AI that is the\n"
    "primary key; empty: the row's first AI that is a Digital Link primary key, else its first AI);\n"
    "one column per AI, named by its number (01, 10, 17, 3103...); ext:<key> per extension parameter;\n"
    "digitalLinkStem; linkType; context. parse's: reference, data. An empty cell is a field not given;\n"
    "an empty reference is the row's line number; an empty row is skipped. CSV out, one row per item\n"
    "in input order: generate reference,barcodeText,hri,errors; parse reference,form,\n"
    "symbologyIdentifier,elementString,hri,digitalLink,errors (errors: \"<code> <path>: <message>\"\n"
    "joined by \" | \"). --output FILE is replaced atomically; a summary line goes to stderr.\n"
    "--pretty writes the JSON answer indented, a field a line.\n"
    "Examples:\n"
    "  codepayload generate examples/batch.json --pretty\n"
    "  codepayload generate products.csv --output codes.csv\n"
    "  printf '%s\\n' '(01)09506000134352(10)ABC123' | codepayload parse\n"
    "  codepayload parse scans.txt --output-format csv --allow-failures\n";

constexpr int kExitItemsFailed = 3;

enum class OutputFormat { Json, Csv };

struct Options {
  std::string command;
  std::optional<std::string> input;
  std::optional<InputFormat> inputFormat;
  std::optional<OutputFormat> outputFormat;
  std::optional<std::filesystem::path> output;
  std::optional<std::filesystem::path> db;
  std::optional<std::filesystem::path> baseline;
  std::filesystem::path rulesDir;
  std::filesystem::path dataDir;
  std::size_t maxItems = 0;
  bool allowFailures = false;
  bool pretty = false;
  bool help = false;
  bool version = false;

  bool parse() const { return command == "parse"; }
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool namedCsv(const std::string& name) {
  return name.size() > 4 &&
         codepayload::common::equalsIgnoringAsciiCase(std::string_view(name).substr(name.size() - 4), ".csv");
}

Options parseArguments(const std::vector<std::string>& arguments, const codepayload::app::Settings& settings) {
  std::vector<codepayload::app::OptionSpec> specs = codepayload::app::standardOptions();
  for (const char* name : {"db", "baseline", "rules-dir", "input-format", "output-format", "output"}) {
    specs.push_back({name, "", "VALUE", "", false});
  }
  specs.push_back({"allow-failures", "", "", "", false});
  specs.push_back({"pretty", "", "", "", false});
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
  if (options.command != "generate" && options.command != "parse" && options.command != "modules")
    throw UsageError("unknown command " + options.command);
  const bool batch = options.command != "modules";
  const std::size_t inputs = batch ? 1 : 0;
  if (parsed.positional.size() > 1 + inputs) throw UsageError("unexpected argument " + parsed.positional[1 + inputs]);
  if (parsed.positional.size() == 2 && inputs == 1) options.input = parsed.positional[1];
  if (const auto db = parsed.value("--db")) options.db = *db;
  if (const auto baseline = parsed.value("--baseline")) options.baseline = *baseline;
  options.rulesDir = parsed.value("--rules-dir").value_or(settings.rulesDir.string());
  options.dataDir = settings.dataDir;
  options.maxItems = static_cast<std::size_t>(codepayload::app::integerSetting(settings, "limits.maxItems"));
  if (options.db && options.baseline) throw UsageError("--db and --baseline exclude each other");
  for (const char* option : {"--allow-failures", "--input-format", "--output-format", "--output", "--pretty"}) {
    if (!batch && parsed.has(option)) throw UsageError(std::string(option) + " is for generate and parse");
  }
  options.allowFailures = parsed.has("--allow-failures");
  options.pretty = parsed.has("--pretty");
  if (const auto format = parsed.value("--input-format")) {
    if (*format == "json") {
      options.inputFormat = InputFormat::Json;
    } else if (*format == "csv") {
      options.inputFormat = InputFormat::Csv;
    } else if (*format == "lines" && options.parse()) {
      options.inputFormat = InputFormat::Lines;
    } else {
      throw UsageError(options.parse() ? "--input-format is json, csv or lines" : "--input-format is json or csv");
    }
  }
  if (const auto format = parsed.value("--output-format")) {
    if (*format != "json" && *format != "csv") throw UsageError("--output-format is json or csv");
    options.outputFormat = *format == "csv" ? OutputFormat::Csv : OutputFormat::Json;
  }
  if (const auto output = parsed.value("--output")) {
    if (output->empty() || *output == "-") throw UsageError("--output needs a file name");
    options.output = *output;
  }
  // A file's name stands for the format nobody named.
  if (!options.inputFormat && options.input && namedCsv(*options.input)) options.inputFormat = InputFormat::Csv;
  if (!options.outputFormat) {
    options.outputFormat =
        options.output && namedCsv(options.output->string()) ? OutputFormat::Csv : OutputFormat::Json;
  }
  if (options.pretty && options.outputFormat == OutputFormat::Csv) throw UsageError("--pretty is for JSON output");
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

bool fromStandardInput(const Options& options) { return !options.input || *options.input == "-"; }

std::string readInput(const Options& options) {
  if (fromStandardInput(options)) {
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

// The batch as the JSON body the engine takes: the input itself when it is
// JSON, else built from its lines or CSV records (throws cli::InputError).
std::string requestBody(const Options& options, std::string text, const codepayload::Snapshot& rules) {
  const InputFormat format =
      options.inputFormat.value_or(options.parse() ? codepayload::cli::detectParseInput(text) : InputFormat::Json);
  switch (format) {
    case InputFormat::Json: return text;
    case InputFormat::Lines: return codepayload::cli::parseRequestFromLines(text);
    case InputFormat::Csv: break;
  }
  if (options.parse()) return codepayload::cli::parseRequestFromCsv(text);
  return codepayload::cli::codesRequestFromCsv(text, [&rules](std::string_view ai) {
    const codepayload::CompiledAi* compiled = rules.findAi(ai);
    return compiled != nullptr && compiled->definition->digitalLinkPrimaryKey;
  });
}

// Writes the engine's output to a stream as it comes.
class StreamSink final : public codepayload::OutputSink {
 public:
  explicit StreamSink(std::ostream& out) : out_(out) {}
  void write(std::string_view piece) override { out_.write(piece.data(), static_cast<std::streamsize>(piece.size())); }

 private:
  std::ostream& out_;
};

// The server's envelope for a body refused as a whole (path null for the
// whole body).
std::string envelope(const codepayload::RequestError& error) {
  std::string text = "{\"errors\":[{\"code\":";
  codepayload::common::appendJsonString(text, codepayload::app::requestErrorCode(error.kind));
  text += ",\"path\":";
  if (error.path.empty()) {
    text += "null";
  } else {
    codepayload::common::appendJsonString(text, error.path);
  }
  text += ",\"message\":";
  codepayload::common::appendJsonString(text, error.message);
  text += "}]}\n";
  return text;
}

// What --output creates: the mode an ordinary new file gets under the umask.
codepayload::common::AtomicFileOptions outputFileOptions() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return {.mode = 0666u & ~static_cast<unsigned>(mask)};
}

// Hands `write` standard output, or with --output the temporary file that
// then takes FILE's place: whatever `write` throws leaves FILE as it was.
void writeOutput(const Options& options, const std::function<void(std::ostream&)>& write) {
  if (!options.output) {
    write(std::cout);
    std::cout.flush();
    if (!std::cout.good()) throw std::runtime_error("standard output: cannot be written");
    return;
  }
  try {
    codepayload::common::writeFileAtomically(
        *options.output, outputFileOptions(), [&write](const std::filesystem::path& temporary) {
          std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
          write(file);
          file.close();
          if (!file) throw codepayload::common::AtomicFileError("cannot write " + temporary.string());
        });
  } catch (const codepayload::common::AtomicFileError& e) {
    throw std::runtime_error(options.output->string() + ": cannot be written (" + e.what() + ")");
  }
}

// The engine's refusal of the whole body, thrown out of writeOutput so that
// nothing is written.
struct Refused {};

int runBatch(const Options& options, codepayload::SnapshotHolder& holder,
             std::chrono::steady_clock::time_point started) {
  std::string body;
  try {
    body = requestBody(options, readInput(options), *holder.current());
  } catch (const codepayload::cli::InputError& e) {
    codepayload::app::diagnostics().error((fromStandardInput(options) ? "standard input" : *options.input) + ": " +
                                          e.what());
    return 1;
  }
  const codepayload::PayloadEngine engine(holder, codepayload::EngineLimits{.maxItems = options.maxItems});
  codepayload::RequestError error{};
  codepayload::GenerateCounts counts;
  const auto answer = [&](std::ostream& out) {
    if (options.outputFormat == OutputFormat::Json) {
      // Streamed: every refusal of the whole body comes before the first write.
      StreamSink stream(out);
      codepayload::cli::PrettyJsonSink pretty(stream);
      codepayload::OutputSink& sink = options.pretty ? static_cast<codepayload::OutputSink&>(pretty) : stream;
      if (!(options.parse() ? engine.parseJson(body, sink, error, &counts)
                            : engine.generateJson(body, sink, error, &counts))) {
        throw Refused{};
      }
      out << '\n';
      return;
    }
    std::string response;
    std::vector<bool> accepted;
    if (!(options.parse() ? engine.parseJson(body, response, error, &counts, &accepted)
                          : engine.generateJson(body, response, error, &counts, &accepted))) {
      throw Refused{};
    }
    out << (options.parse() ? codepayload::cli::parseResponseToCsv(response, accepted)
                            : codepayload::cli::codesResponseToCsv(response, accepted));
  };
  try {
    writeOutput(options, answer);
  } catch (const Refused&) {
    std::cerr << envelope(error);
    return 1;
  }
  char summary[128];
  std::snprintf(summary, sizeof summary, "%zu %s, %zu failed in %.2f s", counts.codes,
                options.parse() ? "parsed" : "generated", counts.failures,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  codepayload::app::diagnostics().information(summary);
  return counts.failures > 0 && !options.allowFailures ? kExitItemsFailed : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const auto started = std::chrono::steady_clock::now();
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
    std::cout << kUsage << '\n' << kAbout << kHelp;
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
    return runBatch(options, holder, started);
  } catch (const std::exception& e) {
    codepayload::app::diagnostics().error(e.what());
    return 1;
  }
}
