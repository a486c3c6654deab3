// Engine cost per code, in process (Google Benchmark):
//   (a) a valid Digital Link (01)+(10)+(21)+(17) with a linkType
//   (b) the same AIs as an element string
//   (c) a definition with three faults
//   (d) a 10,000-item mixed batch, JSON parsing and JSON writing included
// and reading back (POST /codes/parse), beside them:
//   (e) the Digital Link of (a) parsed: read, validated, written again
//   (f) the element string of (b) as a GS1 DataMatrix's scanner data
//   (g) the payloads of (d)'s batch as a ParseRequest
//   (h) 10,000 definitions of (a) as a CodesRequest, against (i) their
//       10,000 URIs as a ParseRequest: an item's cost through the JSON both ways
#include <benchmark/benchmark.h>

#include <string>

#include "bench/engine_cases.h"
#include "engine/item_processor.h"
#include "engine/parse_item.h"
#include "engine/payload_engine.h"
#include "engine/snapshot.h"

namespace {

using namespace codepayload;
using bench::baselineRules;
using bench::fourAis;
using bench::mixedBatch;

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

void BM_ThreeFaults(benchmark::State& state) { runItem(state, bench::threeFaults(), false); }

// A request body answered over and over, generated or parsed; with
// `allAccepted`, an item refused is an error of the benchmark.
void runJson(benchmark::State& state, const std::string& body, bool parse, bool allAccepted) {
  SnapshotHolder holder(baselineRules());
  PayloadEngine engine(holder);
  std::string out;
  RequestError error{};
  GenerateCounts counts;
  for (auto _ : state) {
    const bool answered =
        parse ? engine.parseJson(body, out, error, &counts) : engine.generateJson(body, out, error, &counts);
    if (!answered || (allAccepted && counts.failures != 0)) {
      state.SkipWithError(answered ? "an item was refused" : error.message.c_str());
      return;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(body.size()));
}

void BM_MixedBatchJson(benchmark::State& state) {
  runJson(state, mixedBatch(static_cast<std::size_t>(state.range(0))), false, false);
}

// Parses `data` over and over; it must be accepted.
void runParse(benchmark::State& state, const std::string& data) {
  auto rules = baselineRules();
  ParseOutcome outcome;
  parseItem(*rules, data, 0, outcome);
  if (!outcome.accepted()) {
    state.SkipWithError("the payload was refused");
    return;
  }
  for (auto _ : state) {
    parseItem(*rules, data, 0, outcome);
    benchmark::DoNotOptimize(outcome.elementString.data());
  }
  state.SetItemsProcessed(state.iterations());
}

std::string generated(const CodeDefinition& definition) {
  ItemOutcome outcome;
  processItem(*baselineRules(), definition, 0, outcome);
  return outcome.barcodeText;
}

void BM_ParseDigitalLinkFourAis(benchmark::State& state) { runParse(state, generated(fourAis(true))); }
void BM_ParseScannerDataFourAis(benchmark::State& state) { runParse(state, bench::scannerData(fourAis(false))); }

void BM_MixedParseBatchJson(benchmark::State& state) {
  runJson(state, bench::mixedParseBatch(static_cast<std::size_t>(state.range(0))), true, false);
}

// (h) and (i): 10,000 items of (a), with a serial of their own, each way.
std::string digitalLinkBatch(std::size_t items, bool asPayloads) {
  return bench::codesBody(items, [asPayloads](std::size_t i, const std::string&) -> std::string {
    const std::string serial = "SER" + std::to_string(10000000 + i);
    if (asPayloads) {
      return R"J({"data":"https://id.example.com/01/09506000134352/10/ABC123/21/)J" + serial +
             R"J(?17=261231&linkType=gs1:pip"})J";
    }
    return R"J({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"ABC123"},)J"
           R"J({"key":"21","value":")J" +
           serial +
           R"J("},{"key":"17","value":"261231"}],"extensionParameters":[],"digitalLinkStem":"https://id.example.com",)J"
           R"J("linkType":"gs1:pip"})J";
  });
}

void BM_DigitalLinkBatchJson(benchmark::State& state) {
  runJson(state, digitalLinkBatch(static_cast<std::size_t>(state.range(0)), false), false, true);
}
void BM_ParseDigitalLinkBatchJson(benchmark::State& state) {
  runJson(state, digitalLinkBatch(static_cast<std::size_t>(state.range(0)), true), true, true);
}

BENCHMARK(BM_DigitalLinkFourAis);
BENCHMARK(BM_ElementStringFourAis);
BENCHMARK(BM_ThreeFaults);
BENCHMARK(BM_MixedBatchJson)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseDigitalLinkFourAis);
BENCHMARK(BM_ParseScannerDataFourAis);
BENCHMARK(BM_MixedParseBatchJson)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DigitalLinkBatchJson)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseDigitalLinkBatchJson)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
