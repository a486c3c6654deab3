// codepayload_engine_profile: runs one case of the engine benchmark a fixed
// number of times, for a profiler. Under callgrind, collect only the measured
// loop, so that instructions per code are the collected total divided by the
// codes processed:
//
//   valgrind --tool=callgrind --toggle-collect='*profiledLoop*' codepayload_engine_profile digital-link 20000
//
// Cases: digital-link (a), element-string (b), three-faults (c), mixed-batch
// (d, a 10,000-item CodesRequest body per repetition), and read back:
// parse-digital-link (e, the URI of (a)) and parse-scanner-data (f, the AIs of
// (b) as GS1 DataMatrix scanner data). Prints the codes processed, which is
// what the total is divided by.
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

#include "bench/engine_cases.h"
#include "engine/item_processor.h"
#include "engine/parse_item.h"
#include "engine/payload_engine.h"
#include "engine/snapshot.h"

namespace {

using namespace codepayload;

constexpr std::size_t kBatchItems = 10000;

// The measured loops. noinline keeps each a function of its own that
// callgrind's --toggle-collect can name.
[[gnu::noinline]] std::size_t profiledLoopItems(const Snapshot& rules, const CodeDefinition& definition,
                                                std::size_t repetitions, ItemOutcome& outcome) {
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < repetitions; ++i) {
    processItem(rules, definition, 0, outcome);
    accepted += outcome.accepted() ? 1 : 0;
  }
  return accepted;
}

[[gnu::noinline]] bool profiledLoopBatch(const PayloadEngine& engine, std::string_view body, std::size_t repetitions,
                                         std::string& out) {
  RequestError error{};
  for (std::size_t i = 0; i < repetitions; ++i) {
    if (!engine.generateJson(body, out, error)) {
      std::fprintf(stderr, "codepayload_engine_profile: the batch was refused: %s\n", error.message.c_str());
      return false;
    }
  }
  return true;
}

[[gnu::noinline]] std::size_t profiledLoopParse(const Snapshot& rules, std::string_view data, std::size_t repetitions,
                                                ParseOutcome& outcome) {
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < repetitions; ++i) {
    parseItem(rules, data, 0, outcome);
    accepted += outcome.accepted() ? 1 : 0;
  }
  return accepted;
}

int profileParse(const std::string& data, std::size_t repetitions) {
  const auto rules = bench::baselineRules();
  ParseOutcome outcome;
  const std::size_t accepted = profiledLoopParse(*rules, data, repetitions, outcome);
  if (accepted != repetitions) {
    std::fprintf(stderr, "codepayload_engine_profile: %zu of %zu payloads read back\n", accepted, repetitions);
    return 1;
  }
  std::printf("codes processed: %zu\n", repetitions);
  return 0;
}

// The barcode text the engine writes for `definition`.
std::string generatedText(const CodeDefinition& definition) {
  ItemOutcome outcome;
  processItem(*bench::baselineRules(), definition, 0, outcome);
  return outcome.barcodeText;
}

int profileItems(const CodeDefinition& definition, bool expectAccepted, std::size_t repetitions) {
  const auto rules = bench::baselineRules();
  ItemOutcome outcome;
  const std::size_t accepted = profiledLoopItems(*rules, definition, repetitions, outcome);
  if (accepted != (expectAccepted ? repetitions : 0)) {
    std::fprintf(stderr, "codepayload_engine_profile: unexpected verdict (%zu of %zu accepted)\n", accepted,
                 repetitions);
    return 1;
  }
  std::printf("codes processed: %zu\n", repetitions);
  return 0;
}

int profileBatch(std::size_t repetitions) {
  SnapshotHolder holder(bench::baselineRules());
  const PayloadEngine engine(holder);
  const std::string body = bench::mixedBatch(kBatchItems);
  std::string out;
  if (!profiledLoopBatch(engine, body, repetitions, out)) return 1;
  std::printf("codes processed: %zu\n", repetitions * kBatchItems);
  return 0;
}

int usage() {
  std::fprintf(stderr,
               "usage: codepayload_engine_profile digital-link|element-string|three-faults|mixed-batch|\n"
               "                                  parse-digital-link|parse-scanner-data REPETITIONS\n"
               "REPETITIONS: 1 to 100000000 (mixed-batch: 10,000 codes each)\n");
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return usage();
  const std::string_view name = argv[1];
  const std::string_view count = argv[2];
  std::size_t repetitions = 0;
  const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), repetitions);
  if (error != std::errc() || end != count.data() + count.size() || repetitions == 0 || repetitions > 100000000) {
    return usage();
  }
  if (name == "digital-link") return profileItems(bench::fourAis(true), true, repetitions);
  if (name == "element-string") return profileItems(bench::fourAis(false), true, repetitions);
  if (name == "three-faults") return profileItems(bench::threeFaults(), false, repetitions);
  if (name == "mixed-batch") return profileBatch(repetitions);
  if (name == "parse-digital-link") return profileParse(generatedText(bench::fourAis(true)), repetitions);
  if (name == "parse-scanner-data") return profileParse(bench::scannerData(bench::fourAis(false)), repetitions);
  return usage();
}
