// The one command-line parser of every binary, over Poco::Util's OptionSet and
// OptionProcessor: options are "--name VALUE", "--name=VALUE" or a flag
// "--name" (some also "-x"); "--" ends the options; anything else, "-" too, is
// a positional argument. Option names must be spelled out: Poco's
// abbreviations ("--ba" for "--baseline") and its case-insensitivity are
// refused. A problem throws CommandLineError carrying its kind and the option
// as typed, so each binary words it as its usage text promises.
#pragma once

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace codepayload::app {

struct OptionSpec {
  std::string name;         // "db" for --db
  std::string shortName;    // "h" for -h; empty: none
  std::string argument;     // "PATH"; empty: the option is a flag
  std::string description;  // one line for the help text
  bool repeatable = false;
};

// what(): "unknown option --x", "--db needs a value", "--db given twice" or
// "--help takes no value".
struct CommandLineError : std::runtime_error {
  enum class Kind { UnknownOption, MissingValue, Repeated, UnexpectedValue };
  CommandLineError(Kind errorKind, std::string typedOption);
  Kind kind;
  std::string option;  // "--db", as typed (without "=VALUE")
};

struct ParsedCommandLine {
  std::vector<std::pair<std::string, std::string>> options;  // ("--db", "a.db"); a flag's value is ""
  std::vector<std::string> positional;

  bool has(std::string_view option) const;
  std::optional<std::string> value(std::string_view option) const;  // the (only) value
  std::vector<std::string> values(std::string_view option) const;   // every value, in order
};

// --help (-h) and --version, which every binary accepts.
std::vector<OptionSpec> standardOptions();

class CommandLine {
 public:
  explicit CommandLine(std::vector<OptionSpec> options);

  // `arguments` without the program name. Throws CommandLineError.
  ParsedCommandLine parse(std::span<const std::string> arguments) const;

  // "usage: <program> <synopsis>" then the options, one per line, formatted by
  // Poco::Util::HelpFormatter.
  std::string help(std::string_view program, std::string_view synopsis, std::string_view description) const;

 private:
  std::vector<OptionSpec> options_;
};

}  // namespace codepayload::app
