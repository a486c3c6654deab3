// The engine's metrics (engine/engine_metrics.h): every code form is told
// apart without allocating, and the counters move by exactly the items and
// errors a request had. The counters are process-wide: each test compares
// readings before and after its own requests (tests in one binary run one
// after the other).
#include "engine/engine_metrics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/engine/rules_fixture.h"

namespace codepayload {
namespace {

using testing::newestSnapshot;
using testing::releaseSnapshot;
using testing::runRequest;
using testing::TempRulesDir;

TEST(CodeFormIndex, EachBuilderLandsOnItsForm) {
  EXPECT_EQ(codes::codeFormIndex(codes::primaryKey()), 0u);
  EXPECT_EQ(codes::codeFormIndex(codes::ai(0)), 1u);
  EXPECT_EQ(codes::codeFormIndex(codes::ai(12)), 1u);
  EXPECT_EQ(codes::codeFormIndex(codes::aiKeys()), 2u);
  EXPECT_EQ(codes::codeFormIndex(codes::aiDigitalLink(3)), 3u);
  EXPECT_EQ(codes::codeFormIndex(codes::qualifiers()), 4u);
  EXPECT_EQ(codes::codeFormIndex(codes::relationRequires("3922")), 5u);
  EXPECT_EQ(codes::codeFormIndex(codes::relationExcludes("21", "235")), 6u);
  EXPECT_EQ(codes::codeFormIndex(codes::extensionParameters()), 7u);
  EXPECT_EQ(codes::codeFormIndex(codes::extensionParameter(2)), 8u);
  EXPECT_EQ(codes::codeFormIndex(codes::digitalLinkStem()), 9u);
  EXPECT_EQ(codes::codeFormIndex(codes::context()), 10u);
  EXPECT_EQ(codes::codeFormIndex(codes::linkType()), 11u);
  EXPECT_EQ(codes::codeFormIndex(codes::ruleModule("gcp_allowlist")), 12u);
  EXPECT_EQ(codes::codeFormIndex(codes::ruleModule("a")), 12u);
  EXPECT_EQ(codes::kCodeFormCount, codes::codeForms().size());
}

TEST(CodeFormIndex, CodesOfNoFormAreCountedApart) {
  const std::size_t none = codes::codeForms().size();
  for (const std::string code :
       {"", "Validation.Invalid.", "Validation.Invalid.custom", "Validation.Invalid.ais.x", "Validation.Invalid.ais.",
        "Validation.Invalid.ais.1.2", "Validation.Invalid.ais.1.digitalLinkX", "Validation.Invalid.rule.",
        "Validation.Invalid.rule.a.b", "Validation.Invalid.relations.21.excludes.", "validation.invalid.context",
        "Validation.Invalid.contextual", "Validation.Invalid.relations.ab.requires", "<n>"}) {
    EXPECT_EQ(codes::codeFormIndex(code), none) << code;
  }
}

struct Reading {
  std::uint64_t accepted;
  std::uint64_t rejected;
  std::vector<std::uint64_t> byForm;
  std::uint64_t linterFailures;
  std::uint64_t moduleFailures;
};

Reading read() {
  const EngineMetrics& metrics = engineMetrics();
  Reading reading{metrics.codesAccepted.value(),
                  metrics.codesRejected.value(),
                  {},
                  metrics.luaLinterFailures.value(),
                  metrics.luaModuleFailures.value()};
  for (const metrics::Counter& counter : metrics.errorsByForm) reading.byForm.push_back(counter.value());
  return reading;
}

// [form] = errors counted between two readings.
std::vector<std::uint64_t> formDeltas(const Reading& before, const Reading& after) {
  std::vector<std::uint64_t> deltas;
  for (std::size_t form = 0; form < after.byForm.size(); ++form) {
    deltas.push_back(after.byForm[form] - before.byForm[form]);
  }
  return deltas;
}

std::vector<std::uint64_t> only(std::size_t form, std::uint64_t count) {
  std::vector<std::uint64_t> deltas(codes::kCodeFormCount + 1, 0);
  deltas[form] = count;
  return deltas;
}

const std::string kGood = R"J({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})J";
// A GTIN with a wrong check digit: one Validation.Invalid.primaryKey error.
const std::string kBadCheckDigit =
    R"J({"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],"extensionParameters":[]})J";

TEST(EngineMetrics, ThreeAcceptedAndOneRejectedMoveTheCountersByExactlyThat) {
  const auto rules = newestSnapshot();
  const Reading before = read();
  const std::string response =
      runRequest(rules, "{\"codes\":[" + kGood + "," + kGood + "," + kBadCheckDigit + "," + kGood + "]}");
  const Reading after = read();
  ASSERT_NE(response.find("\"failures\":[{\"reference\":\"2\""), std::string::npos) << response;
  EXPECT_EQ(after.accepted - before.accepted, 3u);
  EXPECT_EQ(after.rejected - before.rejected, 1u);
  EXPECT_EQ(formDeltas(before, after), only(0, 1));
  EXPECT_EQ(after.linterFailures, before.linterFailures);
  EXPECT_EQ(after.moduleFailures, before.moduleFailures);
}

TEST(EngineMetrics, ARequestRefusedAsAWholeCountsNoItem) {
  const auto rules = newestSnapshot();
  const Reading before = read();
  EXPECT_EQ(runRequest(rules, "{\"codes\":[" + kGood + "]").rfind("RequestError", 0), 0u);
  const Reading after = read();
  EXPECT_EQ(after.accepted, before.accepted);
  EXPECT_EQ(after.rejected, before.rejected);
}

TEST(EngineMetrics, LuaFailuresAreCountedByKindAndTheirItemsByForm) {
  TempRulesDir rules;
  rules.write("modules/probe.lua", "return { describe = 'test', check = function(item, report) error('boom') end }\n");
  rules.write("pipeline.properties",
              "pipeline.steps = primaryKey, normalisation, aiKeys, aiFormat, relations, digitalLinkPlacement, "
              "digitalLinkStem, linkType, context, extensionParameters, lua:probe\n"
              "module.normalisation.gtinAis = 01\nmodule.normalisation.temperatureAis = 4330, 4331, 4332, 4333\n"
              "module.primaryKey.elementStringOnly = 03\n"
              "module.linkType.aliases = gs1:defaultPage=gs1:defaultLink, gs1:defaultPageMulti=gs1:defaultLinkMulti\n");
  const auto snapshot = releaseSnapshot("2026-01-27", rules.path());
  const Reading before = read();
  runRequest(snapshot, "{\"codes\":[" + kGood + "," + kGood + "]}");
  const Reading after = read();
  EXPECT_EQ(after.moduleFailures - before.moduleFailures, 2u);
  EXPECT_EQ(after.linterFailures, before.linterFailures);
  EXPECT_EQ(after.rejected - before.rejected, 2u);
  EXPECT_EQ(after.accepted, before.accepted);
  EXPECT_EQ(formDeltas(before, after), only(12, 2));
}

TEST(EngineMetrics, AFailingLuaLinterIsCountedAsALinterFailure) {
  TempRulesDir rules;
  rules.write("linters/latlong.lua", "return function(component) return 'bad reason!', 0, 1 end");
  const auto snapshot = releaseSnapshot("2022-08-10", rules.path());
  const Reading before = read();
  runRequest(snapshot, R"J({"codes":[{"primaryKey":{"key":"00","value":"376104250021234569"},)J"
                       R"J("ais":[{"key":"4309","value":"01234567890123456789"}],"extensionParameters":[]}]})J");
  const Reading after = read();
  EXPECT_EQ(after.linterFailures - before.linterFailures, 1u);
  EXPECT_EQ(after.moduleFailures, before.moduleFailures);
  EXPECT_EQ(after.rejected - before.rejected, 1u);
  EXPECT_EQ(formDeltas(before, after), only(1, 1));
}

}  // namespace
}  // namespace codepayload
