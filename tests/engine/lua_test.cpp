// Lua linters and rule modules: the plugin path, its sandbox, failing closed.
#include <gtest/gtest.h>

#include "engine/lua_runtime.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

std::string rejected(const std::string& errors) {
  return R"J({"codes":[],"failures":[{"reference":"0","errors":[)J" + errors + "]}]}";
}

const std::string kSscc = R"J("primaryKey":{"key":"00","value":"376104250021234569"})J";

TEST(LuaLinter, LatlongLetsTheOldestReleaseValidateAi4309) {
  auto rules = releaseSnapshot("2022-08-10");
  EXPECT_EQ(
      runDefinition(
          rules, "{" + kSscc + R"J(,"ais":[{"key":"4309","value":"01234567890123456789"}],"extensionParameters":[]})J"),
      R"J({"codes":[{"reference":"0","barcodeText":"(00)376104250021234569(4309)01234567890123456789",)J"
      R"J("hri":"(00)376104250021234569(4309)01234567890123456789"}],"failures":[]})J");
  EXPECT_EQ(
      runDefinition(
          rules, "{" + kSscc + R"J(,"ais":[{"key":"4309","value":"19000000000123456789"}],"extensionParameters":[]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["4309","linter","latlong","invalidLatitude","0","10"],"message":"AI 4309: the latitude '1900000000' (characters 1 to 10 of '19000000000123456789') is above 1800000000 (90 degrees north)."})J"));
  EXPECT_EQ(
      runDefinition(
          rules, "{" + kSscc + R"J(,"ais":[{"key":"4309","value":"01234567893700000000"}],"extensionParameters":[]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["4309","linter","latlong","invalidLongitude","10","10"],"message":"AI 4309: the longitude '3700000000' (characters 11 to 20 of '01234567893700000000') is above 3600000000 (180 degrees east)."})J"));
}

TEST(LuaLinter, AReleaseNamingAnUnimplementedLinterIsRefused) {
  TempRulesDir rules;
  std::filesystem::remove(rules.path() / "linters" / "latlong.lua");
  try {
    releaseSnapshot("2022-08-10", rules.path());
    FAIL() << "expected SnapshotError";
  } catch (const SnapshotError& e) {
    EXPECT_EQ(std::string(e.what()), "AI 4309: linter \"latlong\" has no implementation (neither built in nor " +
                                         (rules.path() / "linters" / "latlong.lua").string() + ")");
  }
}

TEST(LuaLinter, AMalformedVerdictFailsClosed) {
  TempRulesDir rules;
  rules.write("linters/latlong.lua", "return function(component) return 'bad reason!', 0, 1 end");
  EXPECT_EQ(
      runDefinition(
          releaseSnapshot("2022-08-10", rules.path()),
          "{" + kSscc + R"J(,"ais":[{"key":"4309","value":"01234567890123456789"}],"extensionParameters":[]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["4309","linter","latlong","linterError","0","20"],"message":"AI 4309: the check latlong could not run on the value, so it is refused (the operator finds the cause in the server log)."})J"));
}

std::string pipelineWith(const std::string& steps, const std::string& extra = "") {
  return "pipeline.steps = primaryKey, normalisation, aiKeys, aiFormat, relations, digitalLinkPlacement, "
         "digitalLinkStem, linkType, context, extensionParameters" +
         steps +
         "\n"
         "module.normalisation.gtinAis = 01\nmodule.normalisation.temperatureAis = 4330, 4331, 4332, 4333\n"
         "module.primaryKey.elementStringOnly = 03\n"
         "module.linkType.aliases = gs1:defaultPage=gs1:defaultLink, gs1:defaultPageMulti=gs1:defaultLinkMulti\n" +
         extra;
}

TEST(LuaModule, GcpAllowListIsOffWithoutPrefixesAndSaysWhy) {
  const auto& states = newestSnapshot()->pipeline().states();
  ASSERT_EQ(states.size(), 11u);
  EXPECT_EQ(states.back().name, "lua:gcp_allowlist");
  EXPECT_EQ(states.back().kind, "lua");
  EXPECT_FALSE(states.back().enabled);
  EXPECT_EQ(states.back().reason, "no prefixes configured (module.gcp_allowlist.prefixes)");
}

// A C++ module reads its own section too and may switch itself off: the
// module list says so, with the reason, and the module does not run.
TEST(ModuleStates, ACppModuleSwitchedOffIsListedWithItsReasonAndDoesNotRun) {
  TempRulesDir rules;
  rules.write("pipeline.properties", "pipeline.steps = primaryKey, normalisation, aiKeys, aiFormat\n");
  auto snapshot = releaseSnapshot("2026-01-27", rules.path());
  const auto& states = snapshot->pipeline().states();
  ASSERT_EQ(states.size(), 4u);
  EXPECT_EQ(states[1].name, "normalisation");
  EXPECT_EQ(states[1].kind, "cpp");
  EXPECT_FALSE(states[1].enabled);
  EXPECT_EQ(states[1].reason, "no AIs configured (module.normalisation.gtinAis, module.normalisation.temperatureAis)");
  EXPECT_TRUE(states[0].enabled);
  EXPECT_EQ(states[0].reason, "primary key: a known AI accepted as primary key here");
  // Not padded to 14 digits, an 8-digit GTIN is too short for its format.
  EXPECT_EQ(
      runDefinition(snapshot, R"J({"primaryKey":{"key":"01","value":"95012346"},"ais":[],"extensionParameters":[]})J"),
      R"J({"codes":[],"failures":[{"reference":"0","errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","format","N14","tooShort","8"],"message":"AI 01: '95012346' is too short for the format N14."}]}]})J");
}

// The settings C++ modules once read from top-level keys are refused, not
// lost: the file must say module.<name>.<key>.
TEST(ModuleStates, AKeyOutsideTheModuleSectionsRefusesTheFile) {
  TempRulesDir rules;
  rules.write("pipeline.properties", "pipeline.steps = primaryKey, normalisation\nnormalise.gtin.ais = 01\n");
  try {
    releaseSnapshot("2026-01-27", rules.path());
    FAIL() << "expected SnapshotError";
  } catch (const SnapshotError& e) {
    EXPECT_EQ(std::string(e.what()),
              (rules.path() / "pipeline.properties").string() +
                  ": \"normalise.gtin.ais\" is not a pipeline setting: the file holds pipeline.steps and "
                  "module.<name>.<key> lines (each rule module reads its own section; see docs/decisions.md D-A17)");
  }
  rules.write("pipeline.properties", "pipeline.steps = linkType\nmodule.linkType.aliases = gs1:x\n");
  try {
    releaseSnapshot("2026-01-27", rules.path());
    FAIL() << "expected SnapshotError";
  } catch (const SnapshotError& e) {
    EXPECT_EQ(std::string(e.what()), (rules.path() / "pipeline.properties").string() +
                                         ": rule module linkType: module.linkType.aliases: \"gs1:x\" is not "
                                         "name=target");
  }
}

TEST(LuaModule, GcpAllowListAddedWithoutRecompiling) {
  TempRulesDir rules;
  rules.write("pipeline.properties",
              pipelineWith(", lua:gcp_allowlist", "module.gcp_allowlist.prefixes = 9506000, 0614141\n"));
  auto snapshot = releaseSnapshot("2026-01-27", rules.path());
  EXPECT_TRUE(snapshot->pipeline().states().back().enabled);
  EXPECT_EQ(
      runDefinition(snapshot,
                    R"J({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})J"),
      R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"}],"failures":[]})J");
  EXPECT_EQ(
      runDefinition(snapshot,
                    R"J({"primaryKey":{"key":"01","value":"00614141999996"},"ais":[],"extensionParameters":[]})J"),
      R"J({"codes":[{"reference":"0","barcodeText":"(01)00614141999996","hri":"(01)00614141999996"}],"failures":[]})J");
  EXPECT_EQ(
      runDefinition(snapshot,
                    R"J({"primaryKey":{"key":"00","value":"376104250021234569"},"ais":[],"extensionParameters":[]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["00","gcpNotAllowed"],"message":"AI 00: the GS1 Company Prefix of 376104250021234569 is not one of this organization's prefixes."})J"));
}

TEST(LuaModule, AMalformedPrefixRefusesTheRules) {
  TempRulesDir rules;
  rules.write("pipeline.properties", pipelineWith(", lua:gcp_allowlist", "module.gcp_allowlist.prefixes = 95x\n"));
  EXPECT_THROW(releaseSnapshot("2026-01-27", rules.path()), SnapshotError);
}

std::string sandboxModule(const std::string& body) {
  return "return { describe = 'test', check = function(item, report)\n" + body + "\nend }\n";
}

std::string runWithModule(const std::string& body) {
  TempRulesDir rules;
  rules.write("modules/probe.lua", sandboxModule(body));
  rules.write("pipeline.properties", pipelineWith(", lua:probe"));
  return runDefinition(releaseSnapshot("2026-01-27", rules.path()),
                       R"J({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})J");
}

const std::string kRuleError = rejected(
    R"J({"code":"Validation.Invalid.rule.probe","path":null,"args":["ruleError"],"message":"The rule module probe failed on this code, so the code is refused; the operator finds the cause in the server log."})J");

TEST(LuaSandbox, ModulesReportErrorsOfTheSameShape) {
  EXPECT_EQ(
      runWithModule("report('Validation.Invalid.ais', 'ais', {item.primaryKey.key, 'custom'})"),
      rejected(
          R"J({"code":"Validation.Invalid.ais","path":"ais","args":["01","custom"],"message":"A rule refused ais (01, custom)."})J"));
}

// report's optional fourth argument is the module's own message; one that is
// not a string, or not UTF-8, leaves the engine's generic sentence.
TEST(LuaSandbox, ModulesMaySupplyTheirOwnMessage) {
  EXPECT_EQ(runWithModule("report('Validation.Invalid.primaryKey', 'primaryKey', {'01', 'mine'}, 'AI 01: not ours.')"),
            rejected(R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","mine"],)J"
                     R"J("message":"AI 01: not ours."})J"));
  const std::string generic =
      rejected(R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","mine"],)J"
               R"J("message":"A rule refused primaryKey (01, mine)."})J");
  EXPECT_EQ(runWithModule("report('Validation.Invalid.primaryKey', 'primaryKey', {'01', 'mine'}, {})"), generic);
  EXPECT_EQ(runWithModule("report('Validation.Invalid.primaryKey', 'primaryKey', {'01', 'mine'}, 'bad \\255 byte')"),
            generic);
  // A long message is cut at 1 KiB, on a character boundary (here inside the 'é' at bytes 1024 and 1025).
  std::string expected =
      rejected(R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","mine"],)J"
               R"J("message":"a)J" +
               std::string(1022, 'x') + R"J("})J");
  EXPECT_EQ(runWithModule("report('Validation.Invalid.primaryKey', 'primaryKey', {'01', 'mine'}, "
                          "'a' .. string.rep('x', 1022) .. '\\195\\169' .. string.rep('y', 10))"),
            expected);
}

TEST(LuaSandbox, NoFilesNoOsNoRequireNoLoad) {
  EXPECT_EQ(runWithModule("io.open('/etc/passwd')"), kRuleError);
  EXPECT_EQ(runWithModule("os.execute('true')"), kRuleError);
  EXPECT_EQ(runWithModule("require('os')"), kRuleError);
  EXPECT_EQ(runWithModule("load('return 1')()"), kRuleError);
  EXPECT_EQ(runWithModule("dofile('/etc/passwd')"), kRuleError);
}

TEST(LuaSandbox, BudgetMemoryAndErrorsFailClosed) {
  EXPECT_EQ(runWithModule("while true do end"), kRuleError);
  EXPECT_EQ(runWithModule("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1024) end"), kRuleError);
  EXPECT_EQ(runWithModule("error('boom')"), kRuleError);
  EXPECT_EQ(runWithModule("report('Not.A.Validation.Code', nil, {})"), kRuleError);
}

TEST(LuaSandbox, ModuleFilesThatDoNotLoadAreRefused) {
  TempRulesDir rules;
  rules.write("modules/probe.lua", "return { describe = 'no check' }");
  rules.write("pipeline.properties", pipelineWith(", lua:probe"));
  try {
    releaseSnapshot("2026-01-27", rules.path());
    FAIL() << "expected SnapshotError";
  } catch (const SnapshotError& e) {
    EXPECT_EQ(std::string(e.what()), "Lua: rules/modules/probe.lua: the module table has no check function");
  }
  rules.write("modules/probe.lua", "return {");
  EXPECT_THROW(releaseSnapshot("2026-01-27", rules.path()), SnapshotError);
}

}  // namespace
}  // namespace codepayload::testing
