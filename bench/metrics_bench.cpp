// What counting costs on the request path (D-O1): one request's record
// (status counter and latency histogram of its route, as ServiceHandler::serve
// does), one token outcome by cause, and the engine's per-request adds, on one
// thread and on two threads bumping the same counters (the worst case: every
// worker answering the same route). Not part of bench/run.sh; run by hand:
//   build-bench/bench/codepayload_metrics_bench
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "auth/usage_counter.h"
#include "engine/engine_metrics.h"
#include "server/observability/service_metrics.h"

namespace {

using namespace codepayload;

server::ServiceMetrics& sharedService() {
  static server::ServiceMetrics service;
  return service;
}

void BM_RecordRequest(benchmark::State& state) {
  server::RouteMetrics& route = sharedService().route("/codes");
  std::uint64_t micros = 50;
  for (auto _ : state) {
    route.record(200, micros);
    micros = micros * 7 % 4'000'000;  // spread over the buckets
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecordRequest)->Threads(1)->Threads(2)->UseRealTime();

void BM_CountTokenOutcome(benchmark::State& state) {
  server::ServiceMetrics& service = sharedService();
  for (auto _ : state) service.countTokenOutcome("issuanceThrottled");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CountTokenOutcome)->Threads(1)->Threads(2)->UseRealTime();

// PayloadEngine's adds at the end of a request with accepted and rejected items.
void BM_EngineRequestCounts(benchmark::State& state) {
  EngineMetrics& metrics = engineMetrics();
  for (auto _ : state) {
    metrics.codesAccepted.add(3);
    metrics.codesRejected.add(1);
    metrics.errorsByForm[0].add(1);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EngineRequestCounts)->Threads(1)->Threads(2)->UseRealTime();

// The usage hook of one /codes request (D-D12): one client's count, on one
// thread and on two threads counting the same client (one shard: the worst
// case), then for one of 1,000 clients.
void BM_UsageCountOneClient(benchmark::State& state) {
  static auth::UsageCounter counter;
  for (auto _ : state)
    counter.codesAnswered("svc_client_000000000000000000000001", "org_0000000000000001", 1, 0, 1'800'000'000);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UsageCountOneClient)->Threads(1)->Threads(2)->UseRealTime();

void BM_UsageCountManyClients(benchmark::State& state) {
  static auth::UsageCounter counter;
  std::vector<std::string> clients;
  for (int index = 0; index < 1000; ++index) clients.push_back("svc_client_" + std::to_string(1'000'000'000 + index));
  std::size_t next = static_cast<std::size_t>(state.thread_index()) * 500;
  for (auto _ : state) {
    counter.codesAnswered(clients[next], "org_0000000000000001", 1, 0, 1'800'000'000);
    next = (next + 1) % clients.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UsageCountManyClients)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
