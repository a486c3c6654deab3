#!/usr/bin/env bash
# bench/parse.sh BUILD_DIR: what reading a payload back costs against generating it, in one run,
# written to bench/results/parse.md (make bench-parse calls this).
#
# codepayload_engine_bench, in process, BENCH_RUNS times (each run measures every pair once, one
# after the other); per run, each pair's ratio parse / generate; the figures are medians, and each
# ratio is the median of the per-run ratios. The pairs, per item (CPU time):
#  - a Digital Link (01)+(10)+(21)+(17) + linkType generated (engine (a)) against that URI parsed:
#    read, validated by the same pipeline, written again as URI, element string and HRI;
#  - the same AIs as an element string (engine (b)) against them as GS1 DataMatrix scanner data;
#  - 10,000 such Digital Links through the JSON of a CodesRequest against their URIs through the
#    JSON of a ParseRequest (the request parsed, every item answered, the response written).
# Target: parse no more than generate (a ratio of at most 1).
# With valgrind installed (make bench-parse installs it), the instructions per
# item of the first pair, from callgrind (codepayload_engine_profile), split
# into the steps of each direction: they do not depend on how busy the
# machine is, and show where parse's extra cost lies.
#
# Settings (environment): BENCH_RUNS (5), BENCH_MIN_TIME (seconds per benchmark, 0.5),
# BENCH_OUTPUT (bench/results/parse.md).
set -euo pipefail

script_name=bench/parse.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: bench/parse.sh BUILD_DIR" >&2; exit 64; }
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$1" ] || die "no build directory $1"
build=$(cd "$1" && pwd)
runs=${BENCH_RUNS:-5}
min_time=${BENCH_MIN_TIME:-0.5}
output=${BENCH_OUTPUT:-$repo/bench/results/parse.md}
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a whole number >= 1, not '$runs'"
[[ $min_time =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "BENCH_MIN_TIME must be a number of seconds, not '$min_time'"
engine_bench=$build/bench/codepayload_engine_bench
require_built "$build" "$engine_bench"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The figure's name, its generate benchmark, its parse benchmark.
pairs=(
  "dl BM_DigitalLinkFourAis BM_ParseDigitalLinkFourAis"
  "es BM_ElementStringFourAis BM_ParseScannerDataFourAis"
  "batch BM_DigitalLinkBatchJson/10000 BM_ParseDigitalLinkBatchJson/10000"
)
filter='^BM_(DigitalLinkFourAis|ParseDigitalLinkFourAis|ElementStringFourAis|ParseScannerDataFourAis|DigitalLinkBatchJson|ParseDigitalLinkBatchJson)(/|$)'

# cpu_ns CSV NAME: the CPU time of benchmark NAME per item, in ns.
cpu_ns() {
  awk -F, -v name="\"$2\"" '$1 == name {
      factor = ($5 == "ms") ? 1e6 : ($5 == "us") ? 1e3 : 1
      items = ($1 ~ /\/10000"$/) ? 10000 : 1
      print $4 * factor / items }' "$1"
}

started_at=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A value
for run in $(seq 1 "$runs"); do
  echo "== run $run of $runs"
  "$engine_bench" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
    --benchmark_out="$work/run$run.csv" --benchmark_out_format=csv >"$work/run$run.log" 2>&1 ||
    { cat "$work/run$run.log" >&2; die "codepayload_engine_bench failed"; }
  grep -q ',true,' "$work/run$run.csv" && die "a benchmark reported an error: $(grep ',true,' "$work/run$run.csv")"
  for pair in "${pairs[@]}"; do
    read -r figure generate_benchmark parse_benchmark <<<"$pair"
    for side in generate:"$generate_benchmark" parse:"$parse_benchmark"; do
      ns=$(cpu_ns "$work/run$run.csv" "${side#*:}")
      [ -n "$ns" ] || die "no figure for ${side#*:} in run $run"
      value[$figure-${side%%:*}]+="$ns "
    done
  done
  # Like for like: a parse answer holds the URI and the element string; generating both takes
  # (a) and (b).
  value[both-generate]+="$(calc "$(cpu_ns "$work/run$run.csv" BM_DigitalLinkFourAis) + $(cpu_ns \
    "$work/run$run.csv" BM_ElementStringFourAis)" 3) "
  value[both-parse]+="$(cpu_ns "$work/run$run.csv" BM_ParseDigitalLinkFourAis) "
done
load_at_end=$(cut -d' ' -f1-3 /proc/loadavg)

# Instructions per item by step, when valgrind is there.
engine_profile=$build/bench/codepayload_engine_profile
declare -A instructions
profile_repetitions=20000
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null && [ -x "$engine_profile" ]; then
  for case_name in digital-link parse-digital-link; do
    valgrind --tool=callgrind --callgrind-out-file="$work/$case_name.callgrind" --toggle-collect='*profiledLoop*' \
      "$engine_profile" "$case_name" "$profile_repetitions" >"$work/$case_name.log" 2>&1 ||
      { cat "$work/$case_name.log" >&2; die "codepayload_engine_profile $case_name failed"; }
    callgrind_annotate --inclusive=yes "$work/$case_name.callgrind" >"$work/$case_name.txt" 2>/dev/null
    for step in processItem parseItem readPayload validateItem ItemContext::ItemContext writeDigitalLink \
                writeElementString writeHri; do
      instructions[$case_name-$step]=$(awk -v step="codepayload::$step(" -v count="$profile_repetitions" '
          index($0, step) { gsub(",", "", $1); printf "%.0f", $1 / count; exit }' "$work/$case_name.txt")
    done
  done
fi

# instruction_row LABEL STEP: a step's instructions per item, each direction.
instruction_row() {
  local generate=${instructions[digital-link-$2]:-} parse=${instructions[parse-digital-link-$2]:-}
  echo "| $1 | $( [ -n "$generate" ] && fmt "$generate" || echo none) | $( [ -n "$parse" ] && fmt "$parse" || echo none) |"
}

# the_rest CASE TOTAL STEP...: the instructions of CASE's TOTAL less those of its STEPs.
the_rest() {
  local case_name=$1 total=${instructions[$1-$2]} step
  shift 2
  for step in "$@"; do total=$((total - ${instructions[$case_name-$step]:-0})); done
  echo "$total"
}

instruction_table() {
  [ -n "${instructions[digital-link-processItem]:-}" ] || return 0
  local rest_generate rest_parse
  rest_generate=$(the_rest digital-link processItem validateItem ItemContext::ItemContext writeDigitalLink writeHri)
  rest_parse=$(the_rest parse-digital-link parseItem readPayload validateItem ItemContext::ItemContext \
               writeDigitalLink writeElementString writeHri)
  cat <<EOF

## Where parse's extra cost lies

Instructions per item of the first pair (callgrind, $(fmt "$profile_repetitions") items each way; the
same on any machine for this build). Each step includes what it calls.

| step | generate | parse |
|---|---|---|
$(instruction_row "reading the text" readPayload)
$(instruction_row "the pipeline (every rule module)" validateItem)
$(instruction_row "the item's AIs looked up" ItemContext::ItemContext)
$(instruction_row "the URI written" writeDigitalLink)
$(instruction_row "the element string written" writeElementString)
$(instruction_row "the HRI written" writeHri)
| the rest (the definition built, placement checked, buffers) | $(fmt "$rest_generate") | $(fmt "$rest_parse") |
| **the item** | **$(fmt "${instructions[digital-link-processItem]}")** | **$(fmt "${instructions[parse-digital-link-parseItem]}")** |
EOF
}

row() {
  local figure=$1 label=$2 ratio
  ratio=$(median_ratio "$figure-parse" "$figure-generate")
  echo "| $label | $(fixed "$(m "$figure-generate")" 0) ns | $(fixed "$(m "$figure-parse")" 0) ns |" \
    "$(fixed "$ratio" 2) | <= 1 | $(verdict "$ratio <= 1") |"
}

commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
tree_state=$(git -C "$repo" diff --quiet HEAD 2>/dev/null && echo clean || echo "with local changes")
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
{
  cat <<EOF
# Reading back against generating

Measured by \`bench/parse.sh\` from $started_at: $runs runs of \`codepayload_engine_bench\`, each
benchmark for at least $min_time s of CPU time per run.

- Machine: $(nproc) cores ($cpu_model), $(uname -sr). Load average $load_at_start at the start,
  $load_at_end at the end: a shared machine, so read the ratios, each of two figures of the same run.
- Build: commit $commit ($tree_state), $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt").
- CPU time per item (Google Benchmark's \`cpu_time\`); each ratio is the median of the runs' ratios.

| per item | generate | parse | parse / generate | target | verdict |
|---|---|---|---|---|---|
$(row dl "Digital Link (01)+(10)+(21)+(17) + linkType (engine (a)), the URI parsed")
$(row es "the same AIs as an element string (engine (b)), as ]d2 scanner data")
$(row batch "10,000 such Digital Links through JSON, request and response")

Parsing does what generating does (the same pipeline over the same AIs, the URI and the HRI
written) and more: it reads the text first (percent escapes, the path's pairs, the query) and
writes the element string as well as the URI, and its JSON answer echoes the definition read.
The steps both directions share cost the same instructions (the table below), so in the engine
alone parse costs generate's cost plus its reading and its element string. Through JSON the gap
narrows: a CodesRequest's definition is more JSON to read than a ParseRequest's one string.
Like for like: a parse answer holds both texts, which from \`/codes\` take two definitions, (a)
and (b): $(fixed "$(m both-generate)" 0) ns together, against $(fixed "$(m both-parse)" 0) ns for
the URI parsed, a ratio of $(fixed "$(median_ratio both-parse both-generate)" 2).
$(instruction_table)

## Command

\`\`\`sh
make bench-parse    # = the bench build, then:
BENCH_RUNS=$runs BENCH_MIN_TIME=$min_time bench/parse.sh build-bench
\`\`\`
EOF
} >"$output"
echo "written: $output"
cat "$output"
