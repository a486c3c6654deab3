#include "app/command_line.h"

#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionException.h>
#include <Poco/Util/OptionProcessor.h>
#include <Poco/Util/OptionSet.h>

#include <algorithm>
#include <sstream>

namespace codepayload::app {

namespace {

Poco::Util::OptionSet optionSetOf(const std::vector<OptionSpec>& options) {
  Poco::Util::OptionSet set;
  for (const OptionSpec& spec : options) {
    Poco::Util::Option option(spec.name, spec.shortName, spec.description);
    option.repeatable(spec.repeatable);
    if (!spec.argument.empty()) option.argument(spec.argument, true);
    set.addOption(option);
  }
  return set;
}

// The option an argument names, spelled out exactly; nullptr when none.
const OptionSpec* exactOption(const std::vector<OptionSpec>& options, std::string_view argument) {
  for (const OptionSpec& spec : options) {
    if (argument.starts_with("--")) {
      const std::string_view name = argument.substr(
          2, argument.find('=') == std::string_view::npos ? std::string_view::npos : argument.find('=') - 2);
      if (name == spec.name) return &spec;
    } else if (!spec.shortName.empty() && argument.substr(1) == spec.shortName) {
      return &spec;
    }
  }
  return nullptr;
}

std::string typedName(std::string_view argument) { return std::string(argument.substr(0, argument.find('='))); }

std::string describe(CommandLineError::Kind kind, const std::string& option) {
  switch (kind) {
    case CommandLineError::Kind::UnknownOption: return "unknown option " + option;
    case CommandLineError::Kind::MissingValue: return option + " needs a value";
    case CommandLineError::Kind::Repeated: return option + " given twice";
    case CommandLineError::Kind::UnexpectedValue: return option + " takes no value";
  }
  return "bad option " + option;
}

}  // namespace

CommandLineError::CommandLineError(Kind errorKind, std::string typedOption)
    : std::runtime_error(describe(errorKind, typedOption)), kind(errorKind), option(std::move(typedOption)) {}

bool ParsedCommandLine::has(std::string_view option) const {
  return std::any_of(options.begin(), options.end(), [&](const auto& entry) { return entry.first == option; });
}

std::optional<std::string> ParsedCommandLine::value(std::string_view option) const {
  for (const auto& [name, text] : options) {
    if (name == option) return text;
  }
  return std::nullopt;
}

std::vector<std::string> ParsedCommandLine::values(std::string_view option) const {
  std::vector<std::string> found;
  for (const auto& [name, text] : options) {
    if (name == option) found.push_back(text);
  }
  return found;
}

std::vector<OptionSpec> standardOptions() {
  return {
      OptionSpec{"help", "h", "", "print this help and exit", false},
      OptionSpec{"version", "", "", "print the version, the dictionary release and the git commit, and exit", false}};
}

CommandLine::CommandLine(std::vector<OptionSpec> options) : options_(std::move(options)) {}

ParsedCommandLine CommandLine::parse(std::span<const std::string> arguments) const {
  const Poco::Util::OptionSet set = optionSetOf(options_);
  Poco::Util::OptionProcessor processor(set);
  processor.setUnixStyle(true);
  ParsedCommandLine parsed;
  std::string pending;  // an option waiting for its value, as typed
  bool optionsEnded = false;
  for (const std::string& argument : arguments) {
    std::string name;
    std::string value;
    if (!pending.empty()) {
      processor.process(argument, name, value);
      parsed.options.emplace_back("--" + name, value);
      pending.clear();
      continue;
    }
    if (optionsEnded || argument.size() < 2 || argument.front() != '-') {
      parsed.positional.push_back(argument);
      continue;
    }
    if (argument == "--") {
      optionsEnded = true;
      continue;
    }
    if (exactOption(options_, argument) == nullptr) {
      throw CommandLineError(CommandLineError::Kind::UnknownOption, typedName(argument));
    }
    try {
      processor.process(argument, name, value);
    } catch (const Poco::Util::DuplicateOptionException&) {
      throw CommandLineError(CommandLineError::Kind::Repeated, typedName(argument));
    } catch (const Poco::Util::UnexpectedArgumentException&) {
      throw CommandLineError(CommandLineError::Kind::UnexpectedValue, typedName(argument));
    }
    if (name.empty()) {
      pending = argument;  // the value is the next argument
    } else {
      parsed.options.emplace_back("--" + name, value);
    }
  }
  if (!pending.empty()) throw CommandLineError(CommandLineError::Kind::MissingValue, pending);
  return parsed;
}

std::string CommandLine::help(std::string_view program, std::string_view synopsis, std::string_view description) const {
  const Poco::Util::OptionSet set = optionSetOf(options_);
  Poco::Util::HelpFormatter formatter(set);
  formatter.setUnixStyle(true);
  formatter.setCommand(std::string(program));
  formatter.setUsage(std::string(synopsis));
  formatter.setHeader(std::string(description));
  formatter.setWidth(100);
  std::ostringstream text;
  formatter.format(text);
  return text.str();
}

}  // namespace codepayload::app
