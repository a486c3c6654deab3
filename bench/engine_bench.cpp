// Engine cost per code, in process (Google Benchmark):
//   (a) a valid Digital Link (01)+(10)+(21)+(17) with a linkType
//   (b) the same AIs as an element string
//   (c) a definition with three faults
//   (d) a 10,000-item mixed batch, JSON parsing and JSON writing included
#include <benchmark/benchmark.h>

#include <string>

#include "bench/engine_cases.h"
#include "engine/item_processor.h"
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
