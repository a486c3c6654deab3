// The command-line parser every binary shares.
#include "app/command_line.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace codepayload::app {
namespace {

CommandLine importLike() {
  std::vector<OptionSpec> options = standardOptions();
  options.push_back({"db", "", "PATH", "rule database", false});
  options.push_back({"baseline", "", "FILE", "baseline file", false});
  options.push_back({"scope", "", "SCOPE", "a scope", true});
  return CommandLine(std::move(options));
}

ParsedCommandLine parse(const std::vector<std::string>& arguments) { return importLike().parse(arguments); }

std::string errorOf(const std::vector<std::string>& arguments) {
  try {
    parse(arguments);
  } catch (const CommandLineError& error) {
    return error.what();
  }
  return "<no error>";
}

TEST(CommandLine, ReadsOptionsValuesAndPositionalArguments) {
  const ParsedCommandLine parsed =
      parse({"release.txt", "--db", "a.db", "--scope=x", "--scope", "y", "-", "--baseline=b=c"});
  EXPECT_EQ(parsed.positional, (std::vector<std::string>{"release.txt", "-"}));
  EXPECT_EQ(parsed.options, (std::vector<std::pair<std::string, std::string>>{
                                {"--db", "a.db"}, {"--scope", "x"}, {"--scope", "y"}, {"--baseline", "b=c"}}));
  EXPECT_EQ(parsed.value("--db"), "a.db");
  EXPECT_EQ(parsed.value("--help"), std::nullopt);
  EXPECT_EQ(parsed.values("--scope"), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(parsed.has("--baseline"));
  EXPECT_FALSE(parsed.has("--version"));
}

TEST(CommandLine, FlagsAndTheShortHelp) {
  EXPECT_TRUE(parse({"--help"}).has("--help"));
  EXPECT_TRUE(parse({"-h"}).has("--help"));
  EXPECT_TRUE(parse({"--version"}).has("--version"));
  EXPECT_EQ(errorOf({"--version=1"}), "--version takes no value");
}

TEST(CommandLine, AValueMayLookLikeAnOption) {
  EXPECT_EQ(parse({"--db", "--baseline"}).value("--db"), "--baseline");
  EXPECT_EQ(parse({"--db", ""}).value("--db"), "");
}

TEST(CommandLine, DoubleDashEndsTheOptions) {
  const ParsedCommandLine parsed = parse({"--db", "a", "--", "--baseline", "-h"});
  EXPECT_EQ(parsed.positional, (std::vector<std::string>{"--baseline", "-h"}));
  EXPECT_FALSE(parsed.has("--help"));
}

TEST(CommandLine, ProblemsNameTheOptionAsTyped) {
  EXPECT_EQ(errorOf({"--frobnicate"}), "unknown option --frobnicate");
  EXPECT_EQ(errorOf({"--frobnicate=1"}), "unknown option --frobnicate");
  EXPECT_EQ(errorOf({"-x"}), "unknown option -x");
  EXPECT_EQ(errorOf({"--db"}), "--db needs a value");
  EXPECT_EQ(errorOf({"--db", "a", "--db", "b"}), "--db given twice");
  try {
    parse({"--db", "a", "--db=b"});
    FAIL() << "no error";
  } catch (const CommandLineError& error) {
    EXPECT_EQ(error.kind, CommandLineError::Kind::Repeated);
    EXPECT_EQ(error.option, "--db");
  }
}

TEST(CommandLine, NamesMustBeSpelledOut) {
  // Poco alone would take these as --baseline and --db.
  EXPECT_EQ(errorOf({"--base", "b"}), "unknown option --base");
  EXPECT_EQ(errorOf({"--DB", "a"}), "unknown option --DB");
  EXPECT_EQ(errorOf({"--help-me"}), "unknown option --help-me");
}

TEST(CommandLine, HelpListsEveryOption) {
  const std::string help = importLike().help("codepayload-import", "[--db PATH] RELEASE.txt", "Imports a release.");
  EXPECT_TRUE(help.starts_with("usage: codepayload-import [--db PATH] RELEASE.txt\nImports a release.\n")) << help;
  for (const std::string_view option : {"-h, --help", "--version", "--db=PATH", "--baseline=FILE", "--scope=SCOPE"}) {
    EXPECT_NE(help.find(option), std::string::npos) << option << "\n" << help;
  }
}

}  // namespace
}  // namespace codepayload::app
