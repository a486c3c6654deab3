// Engine cost per code, in process (Google Benchmark):
//   (a) a valid Digital Link (01)+(10)+(21)+(17) with a linkType
//   (b) the same AIs as an element string
//   (c) a definition with three faults
//   (d) a 10,000-item mixed batch, JSON parsing and JSON writing included
#include <benchmark/benchmark.h>

#include <string>

#include "engine/item_processor.h"
#include "engine/payload_engine.h"
#include "engine/snapshot.h"
#include "tools/dictionary-import/baseline_format.h"
#include "tools/dictionary-import/source_file.h"

namespace {

using namespace codepayload;

std::shared_ptr<const Snapshot> baselineRules() {
  static std::shared_ptr<const Snapshot> rules = [] {
    std::filesystem::path rulesDir = CODEPAYLOAD_SOURCE_RULES_DIR;
    importer::SourceFile file = importer::readSourceFile(rulesDir / "baseline" / std::string(importer::kBaselineFileName));
    return Snapshot::build(importer::parseBaseline(file.content, file.name).dictionary, rulesDir);
  }();
  return rules;
}

CodeDefinition fourAis(bool digitalLink) {
  CodeDefinition definition;
  definition.primaryKey = {"01", "09506000134352"};
  definition.ais = {{"10", "ABC123"}, {"21", "SER12345678"}, {"17", "261231"}};
  if (digitalLink) {
    definition.digitalLinkStem = "https://id.example.com";
    definition.linkType = "gs1:pip";
  }
  return definition;
}

void runItem(benchmark::State& state, const CodeDefinition& definition, bool expectAccepted) {
  auto rules = baselineRules();
  ItemOutcome outcome;
  processItem(*rules, definition, 0, outcome);
  if (outcome.accepted() != expectAccepted) {
    state.SkipWithError("unexpected verdict");
    return;
  }
  for (auto _ : state) {
    processItem(*rules, definition, 0, outcome);
    benchmark::DoNotOptimize(outcome.barcodeText.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_DigitalLinkFourAis(benchmark::State& state) { runItem(state, fourAis(true), true); }
void BM_ElementStringFourAis(benchmark::State& state) { runItem(state, fourAis(false), true); }

void BM_ThreeFaults(benchmark::State& state) {
  CodeDefinition definition;
  definition.primaryKey = {"01", "09506000134353"};                 // check digit
  definition.ais = {{"10", "AB CD"}, {"17", "261332"}};               // character, month
  runItem(state, definition, false);
}

std::string mixedBatch(std::size_t items) {
  std::string body = "{\"codes\":[";
  for (std::size_t i = 0; i < items; ++i) {
    if (i != 0) body += ',';
    std::string serial = std::to_string(100000 + i);
    switch (i % 4) {
      case 0:
        body += R"J({"reference":"r)J" + serial + R"J(","primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"ABC123"},{"key":"21","value":")J" +
                serial + R"J("},{"key":"17","value":"261231"}],"extensionParameters":[],"digitalLinkStem":"https://id.example.com","linkType":"gs1:pip"})J";
        break;
      case 1:
        body += R"J({"primaryKey":{"key":"01","value":"9506000134352"},"ais":[{"key":"10","value":"L(7)"},{"key":"21","value":")J" + serial +
                R"J("}],"extensionParameters":[]})J";
        break;
      case 2:
        body += R"J({"primaryKey":{"key":"00","value":"376104250021234569"},"ais":[{"key":"4330","value":"123-"}],"extensionParameters":[],"digitalLinkStem":"https://example.com/dl/"})J";
        break;
      default:
        body += R"J({"primaryKey":{"key":"01","value":"09506000134353"},"ais":[{"key":"10","value":"AB CD"},{"key":"17","value":"261332"}],"extensionParameters":[]})J";
    }
  }
  body += "]}";
  return body;
}

void BM_MixedBatchJson(benchmark::State& state) {
  SnapshotHolder holder(baselineRules());
  PayloadEngine engine(holder);
  std::string body = mixedBatch(static_cast<std::size_t>(state.range(0)));
  std::string out;
  RequestError error{};
  for (auto _ : state) {
    if (!engine.generateJson(body, out, error)) {
      state.SkipWithError(error.message.c_str());
      return;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(body.size()));
}

BENCHMARK(BM_DigitalLinkFourAis);
BENCHMARK(BM_ElementStringFourAis);
BENCHMARK(BM_ThreeFaults);
BENCHMARK(BM_MixedBatchJson)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
