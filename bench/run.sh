#!/usr/bin/env bash
# bench/run.sh BUILD_DIR: every benchmark of the project, measured side by side in
# one run, written to bench/results/latest.md (make bench calls this).
#
#  1. HTTP over HTTPS on loopback with wrk against a fresh codepayload-server
#     (temporary data dir, free port) and against codepayload_ceiling_server
#     (same TLS, configuration, worker count and body reading, fixed answer
#     of the same size; for /oauth/token a token issued with the server's
#     issuer and key type, decision D-T4): GET /healthz, single-item /codes and /oauth/token at
#     BENCH_CONNECTIONS and at BENCH_MANY_CONNECTIONS connections, 1,000-item
#     /codes batches at BENCH_CONNECTIONS. Real and ceiling runs alternate,
#     BENCH_RUNS times each; medians, and the transport table (D-T2:
#     p99 and throughput against the ceiling's).
#  2. Memory: VmRSS of the idle server; VmHWM while it serves 10,000-item
#     batches (peak reset through /proc/PID/clear_refs first).
#  3. The engine in process (codepayload_engine_bench, repetitions, medians),
#     run first.
#  4. The token endpoint's failure paths in process
#     (codepayload_token_failure_timing: an unknown client id against a known
#     id with a wrong secret, interleaved, over a real SQLite registry;
#     Mann-Whitney U), run after the engine, before any server starts.
#
# Settings (environment): BENCH_RUNS (5), BENCH_DURATION (seconds per wrk
# run, 10), BENCH_THREADS (wrk threads, 2), BENCH_CONNECTIONS (32),
# BENCH_MANY_CONNECTIONS (256), BENCH_WORKERS (worker threads of both the
# server and the ceiling: http.maxThreads of config/codepayload.properties),
# BENCH_TOKEN_CLIENTS (API clients per token run, 1000: each may mint 600
# tokens a minute, so 1000 allow 60,000 tokens/s over a run; fewer cap a
# quiet machine's runs with 429s, docs/decisions.md D-B1), BENCH_MEMORY_DURATION
# (seconds per memory run, 5), BENCH_ENGINE_REPETITIONS (5),
# BENCH_TIMING_ROUNDS (interleaved rounds of the failure timing, 20000),
# BENCH_OUTPUT (bench/results/latest.md).
#
# Every process it starts is stopped on exit, failure or interrupt. Client
# secrets and tokens stay in the temporary directory (0700), which is removed.
set -euo pipefail

script_name=bench/run.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: bench/run.sh BUILD_DIR" >&2; exit 64; }
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$1" ] || die "no build directory $1"
build=$(cd "$1" && pwd)

runs=${BENCH_RUNS:-5}
duration=${BENCH_DURATION:-10}
threads=${BENCH_THREADS:-2}
connections=${BENCH_CONNECTIONS:-32}
many_connections=${BENCH_MANY_CONNECTIONS:-256}
token_clients=${BENCH_TOKEN_CLIENTS:-1000}
memory_duration=${BENCH_MEMORY_DURATION:-5}
engine_repetitions=${BENCH_ENGINE_REPETITIONS:-5}
timing_rounds=${BENCH_TIMING_ROUNDS:-20000}
output=${BENCH_OUTPUT:-$repo/bench/results/latest.md}
default_workers=$(sed -n 's/^http\.maxThreads *= *\([0-9]*\) *$/\1/p' "$repo/config/codepayload.properties")
workers=${BENCH_WORKERS:-$default_workers}
for setting in runs duration threads connections many_connections workers token_clients memory_duration engine_repetitions timing_rounds; do
  [[ ${!setting} =~ ^[1-9][0-9]*$ ]] || die "$setting must be a whole number >= 1, not '${!setting}'"
done
[ "$connections" -lt "$many_connections" ] ||
  die "BENCH_MANY_CONNECTIONS ($many_connections) must exceed BENCH_CONNECTIONS ($connections)"
[ "$threads" -le "$connections" ] || die "BENCH_THREADS ($threads) must not exceed BENCH_CONNECTIONS ($connections)"

server=$build/server/codepayload-server
admin=$build/tools/admin/codepayload-admin
ceiling=$build/bench/codepayload_ceiling_server
engine_bench=$build/bench/codepayload_engine_bench
failure_timing=$build/bench/codepayload_token_failure_timing
require_built "$build" "$server" "$admin" "$ceiling" "$engine_bench" "$failure_timing"
for tool in wrk curl base64 awk sed; do
  command -v "$tool" >/dev/null || die "$tool is not installed (make bench installs wrk)"
done
wrk_dir=$repo/bench/wrk

work=$(mktemp -d "${TMPDIR:-/tmp}/codepayload-bench.XXXXXX")
chmod 700 "$work"
pids=()

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_started_processes
  if [ $status -eq 0 ]; then
    rm -rf "$work"
  else
    # Keep the logs for the post-mortem, never the secrets.
    rm -rf "$work/data" "$work"/clients-* "$work/client.json" "$work/token.json" "$work/authorization.txt"
    echo "bench/run.sh: failed (status $status); logs kept in $work" >&2
  fi
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "bench/run.sh: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

# --- helpers ---------------------------------------------------------------

status_kib() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }

# Resets the peak resident set (VmHWM) of PID to its current VmRSS.
reset_peak() { echo 5 >"/proc/$1/clear_refs"; }

bench_field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }

# start_ceiling NAME WORKERS OPTION...: sets ceiling_port[NAME] and ceiling_pid[NAME].
declare -A ceiling_port ceiling_pid
start_ceiling() {
  local port_file=$work/ceiling-$1.port
  env CODEPAYLOAD_DATA_DIR="$work/data" CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_THREADS="$2" \
    "$ceiling" "${@:3}" --port-file "$port_file" >"$work/ceiling-$1.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  wait_for_file "$port_file" "$pid" 60
  ceiling_port[$1]=$(cat "$port_file")
  ceiling_pid[$1]=$pid
}

# --- the run ---------------------------------------------------------------

started_at=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
export CODEPAYLOAD_DATA_DIR=$work/data
: >"$work/runs.txt"

# The engine first: after the HTTP runs the (virtual) cores stay slower for a
# while, which would count as the engine's CPU time (docs/decisions.md D-B1).
echo "== engine: codepayload_engine_bench, $engine_repetitions repetitions"
"$engine_bench" --benchmark_repetitions="$engine_repetitions" --benchmark_report_aggregates_only=true \
  --benchmark_out="$work/engine.csv" --benchmark_out_format=csv >"$work/engine.log" 2>&1 ||
  { cat "$work/engine.log" >&2; die "codepayload_engine_bench failed"; }
grep -q ',true,' "$work/engine.csv" && die "a benchmark reported an error: $(grep ',true,' "$work/engine.csv")"

# Exit status 1 is a "fail" verdict (reported in the results), 2 a broken run.
echo "== token endpoint failure timing: codepayload_token_failure_timing, $timing_rounds rounds"
timing_status=0
"$failure_timing" "$timing_rounds" "$repo/db/registry" >"$work/timing.log" 2>&1 || timing_status=$?
[ "$timing_status" -le 1 ] || { cat "$work/timing.log" >&2; die "codepayload_token_failure_timing failed"; }
timing_field() { sed -n "s/^TIMING $1 .*$2=\([^ ]*\).*/\1/p" "$work/timing.log"; }
timing_unknown=$(timing_field path=unknownId median_ns)
timing_wrong=$(timing_field path=wrongSecret median_ns)
timing_difference=$(timing_field compare=unknownId-wrongSecret median_difference_ns)
timing_p=$(timing_field compare=unknownId-wrongSecret p)
timing_verdict=$(sed -n 's/^TIMING verdict=\([a-z]*\):.*/\1/p' "$work/timing.log")
for value in timing_unknown timing_wrong timing_difference timing_p timing_verdict; do
  [ -n "${!value}" ] || die "no $value in $work/timing.log"
done

echo "== server: first start (imports the shipped baseline into a new rules.db)"
start_server "$work/data" "$work/server.log" "$work/access.log"
sleep 2
rss_first_start=$(status_kib "$server_pid" VmRSS)
stop_process "$server_pid"
echo "== server: restart on the same data dir (the steady state)"
start_server "$work/data" "$work/server.log" "$work/access.log"
sleep 2
rss_idle=$(status_kib "$server_pid" VmRSS)
server_url=https://127.0.0.1:$server_port

echo "== API clients and a token"
"$admin" org create --name bench --plan starter >"$work/org.json"
org=$(json_field "$work/org.json" id)
[ -n "$org" ] || die "codepayload-admin org create printed no id: $(cat "$work/org.json")"
"$admin" client create --org "$org" --scope write:codes >"$work/client.json"
client_id=$(json_field "$work/client.json" clientId)
client_secret=$(json_field "$work/client.json" clientSecret)
sleep 1 # the server's registry view refreshes every 250 ms
token_answer=$(curl -sk -o "$work/token.json" -w '%{http_code} %{size_download}' -u "$client_id:$client_secret" \
  -d grant_type=client_credentials "$server_url/oauth/token")
[ "${token_answer% *}" = 200 ] || die "/oauth/token answered ${token_answer% *}: $(cat "$work/token.json")"
token_response_bytes=${token_answer#* }
token=$(json_field "$work/token.json" access_token)
[ -n "$token" ] || die "no access_token in the token response"
for run in $(seq "$runs"); do
  echo "   2 x $token_clients clients for the token runs $run ($connections and $many_connections connections)"
  create_client_lines "$work/clients-$run.txt" "$token_clients" "$org"
  create_client_lines "$work/clients-$run-many.txt" "$token_clients" "$org"
done
sleep 1

health_answer=$(curl -sk -o "$work/health.json" -w '%{http_code} %{size_download}' "$server_url/healthz")
[ "${health_answer% *}" = 200 ] || die "/healthz answered ${health_answer% *}: $(cat "$work/health.json")"
health_response_bytes=${health_answer#* }

echo "== warm-up: one-item requests (their body is checked)"
run_wrk warmup-single "$server_url" codes_single.lua 1 1 1 BENCH_TOKEN="$token" BENCH_BODY_FILE="$work/single.json"
single_response_bytes=$(check_codes "$server_url" "$token" "$work/single.json" 1)
single_request_bytes=$(stat -c %s "$work/single.json")

echo "== memory: the first 10,000-item batches, 1 connection, then $connections connections"
rss_warm=$(status_kib "$server_pid" VmRSS)
reset_peak "$server_pid"
run_wrk memory-1 "$server_url" codes_batch.lua "$memory_duration" 1 1 BENCH_TOKEN="$token" BENCH_BATCH_ITEMS=10000 \
  BENCH_BODY_FILE="$work/batch10k.json"
hwm_one=$(status_kib "$server_pid" VmHWM)
rss_before_many=$(status_kib "$server_pid" VmRSS)
reset_peak "$server_pid"
run_wrk memory-many "$server_url" codes_batch.lua "$memory_duration" "$threads" "$connections" \
  BENCH_TOKEN="$token" BENCH_BATCH_ITEMS=10000
hwm_many=$(status_kib "$server_pid" VmHWM)
batch10k_response_bytes=$(check_codes "$server_url" "$token" "$work/batch10k.json" 10000)
batch10k_request_bytes=$(stat -c %s "$work/batch10k.json")

echo "== warm-up: 1,000-item batches (their body is checked)"
run_wrk warmup-batch "$server_url" codes_batch.lua 1 1 1 BENCH_TOKEN="$token" BENCH_BODY_FILE="$work/batch.json"
batch_response_bytes=$(check_codes "$server_url" "$token" "$work/batch.json" 1000)
batch_request_bytes=$(stat -c %s "$work/batch.json")
codes_type=application/vnd.codepayload.public.v1+json

# The ceiling is Poco's thread-per-connection server: it gets at least a
# worker per connection, so that it answers every connection at once, as the
# server does (with fewer, the connections over its workers wait in its
# queue, unanswered, and wrk's percentiles only see the ones it serves).
ceiling_workers=$(( connections > workers ? connections : workers ))
many_workers=$(( many_connections > workers ? many_connections : workers ))
echo "== ceilings ($ceiling_workers workers; $many_workers for $many_connections connections): answers of $health_response_bytes, $single_response_bytes and $batch_response_bytes bytes, and issued tokens"
start_ceiling healthz "$ceiling_workers" --response-bytes "$health_response_bytes" --content-type application/json
start_ceiling single "$ceiling_workers" --response-bytes "$single_response_bytes" --content-type "$codes_type"
start_ceiling batch "$ceiling_workers" --response-bytes "$batch_response_bytes" --content-type "$codes_type"
start_ceiling token "$ceiling_workers" --issue-tokens
start_ceiling healthz-many "$many_workers" --response-bytes "$health_response_bytes" --content-type application/json
start_ceiling single-many "$many_workers" --response-bytes "$single_response_bytes" --content-type "$codes_type"
start_ceiling token-many "$many_workers" --issue-tokens
rss_ceiling_idle=$(status_kib "${ceiling_pid[single]}" VmRSS)
run_wrk warmup-ceiling-single "https://127.0.0.1:${ceiling_port[single]}" codes_single.lua 1 1 1 BENCH_TOKEN="$token"
run_wrk warmup-ceiling-batch "https://127.0.0.1:${ceiling_port[batch]}" codes_batch.lua 1 1 1 BENCH_TOKEN="$token"

echo "== HTTP: $runs runs of ${duration} s per scenario, server and ceiling alternating"
# Scenarios: NAME at BENCH_CONNECTIONS, NAME-many at BENCH_MANY_CONNECTIONS
# (each against its own ceiling).
scenarios=(healthz single batch token healthz-many single-many token-many)
for run in $(seq "$runs"); do
  for scenario in "${scenarios[@]}"; do
    base=${scenario%-many}
    scenario_connections=$connections
    [ "$base" != "$scenario" ] && scenario_connections=$many_connections
    case $scenario in
      healthz | healthz-many) script=healthz.lua; vars=() ;;
      single | single-many) script=codes_single.lua; vars=(BENCH_TOKEN="$token") ;;
      batch) script=codes_batch.lua; vars=(BENCH_TOKEN="$token" BENCH_BATCH_ITEMS=1000) ;;
      token) script=token.lua; vars=(BENCH_CLIENTS_FILE="$work/clients-$run.txt") ;;
      token-many) script=token.lua; vars=(BENCH_CLIENTS_FILE="$work/clients-$run-many.txt") ;;
    esac
    order=(server ceiling)
    [ $((run % 2)) -eq 0 ] && order=(ceiling server)
    for target in "${order[@]}"; do
      url=$server_url
      [ "$target" = ceiling ] && url=https://127.0.0.1:${ceiling_port[$scenario]}
      echo "   run $run: $scenario ($scenario_connections connections) against the $target"
      run_wrk "$scenario-$target-$run" "$url" "$script" "$duration" "$threads" "$scenario_connections" "${vars[@]}"
    done
  done
done
load_after_http=$(cut -d' ' -f1-3 /proc/loadavg)

stop_started_processes
pids=()

finished_at=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
load_at_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- figures ----------------------------------------------------------------

# engine_median NAME: median CPU time of benchmark NAME, in its time unit (with
# one repetition there is no aggregate: the single run).
engine_median() {
  awk -F, -v median="\"$1_median\"" -v single="\"$1\"" \
    '$1 == median { found = $4 } $1 == single && found == "" { single_run = $4 }
     END { print (found != "") ? found : single_run }' "$work/engine.csv"
}
engine_dl=$(engine_median BM_DigitalLinkFourAis)
engine_es=$(engine_median BM_ElementStringFourAis)
engine_faults=$(engine_median BM_ThreeFaults)
engine_batch_ms=$(engine_median BM_MixedBatchJson/10000)
for value in engine_dl engine_es engine_faults engine_batch_ms; do
  [ -n "${!value}" ] || die "no median for $value in $work/engine.csv"
done
engine_batch_us=$(calc "$engine_batch_ms * 1000 / 10000" 3)

# Per run: answered requests per second (2xx only), latencies in ms, errors.
declare -A value
for scenario in "${scenarios[@]}"; do
  for target in server ceiling; do
    key=$scenario-$target
    value[$key-rate]=$(run_values "$key" 'ok / seconds' | tr '\n' ' ')
    value[$key-p50]=$(run_values "$key" 'f["p50_us"] / 1000' | tr '\n' ' ')
    value[$key-p99]=$(run_values "$key" 'f["p99_us"] / 1000' | tr '\n' ' ')
    value[$key-errors]=$(run_values "$key" \
      'f["non2xx"] + f["connect_errors"] + f["read_errors"] + f["write_errors"] + f["timeouts"]' | tr '\n' ' ')
  done
done

# ratio_median SCENARIO FIGURE: the median of server/ceiling over the runs.
ratio_median() { median_ratio "$1-server-$2" "$1-ceiling-$2"; }

single_rps=$(m single-server-rate)
single_ceiling_rps=$(m single-ceiling-rate)
single_ratio=$(ratio_median single rate)
single_p50=$(m single-server-p50)
single_p99=$(m single-server-p99)
single_ceiling_p50=$(m single-ceiling-p50)
single_ceiling_p99=$(m single-ceiling-p99)
batch_rps=$(m batch-server-rate)
batch_ceiling_rps=$(m batch-ceiling-rate)
batch_codes=$(calc "$batch_rps * 1000")
batch_ceiling_codes=$(calc "$batch_ceiling_rps * 1000")
batch_ratio=$(ratio_median batch rate)
batch_p50=$(m batch-server-p50)
batch_p99=$(m batch-server-p99)
batch_ceiling_p99=$(m batch-ceiling-p99)
token_rps=$(m token-server-rate)
token_ceiling_rps=$(m token-ceiling-rate)
token_ratio=$(ratio_median token rate)
token_p99=$(m token-server-p99)
token_ceiling_p99=$(m token-ceiling-p99)

mib() { calc "$1 / 1024" 1; }
rss_idle_worst=$(( rss_first_start > rss_idle ? rss_first_start : rss_idle ))
extra_one_kib=$(( hwm_one - rss_warm ))
extra_one_ratio=$(calc "$extra_one_kib * 1024 / $batch10k_request_bytes" 1)
extra_many_kib=$(( hwm_many - rss_before_many ))

pct() { calc "$1 * 100" 0; }

all_errors=0
for key in "${!value[@]}"; do
  [[ $key == *-errors ]] || continue
  read -ra counts <<<"${value[$key]}"
  for count in "${counts[@]}"; do all_errors=$(calc "$all_errors + $count"); done
done

commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
tree_state="clean"
[ -n "$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null)" ] && tree_state="with uncommitted changes in the working tree"
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
memory_total=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
compiler=$("$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")" --version | head -1)
wrk_version=$({ wrk -v 2>&1 || true; } | head -1 | cut -d' ' -f1-2)
rel() { echo "${1#"$repo"/}"; }

# per_run_rows SCENARIO UNIT_MULTIPLIER: one table row per run.
per_run_rows() {
  local scenario=$1 multiplier=$2 i sr cr s50 s99 c50 c99 se ce
  read -ra sr <<<"${value[$scenario-server-rate]}"
  read -ra cr <<<"${value[$scenario-ceiling-rate]}"
  read -ra s50 <<<"${value[$scenario-server-p50]}"
  read -ra s99 <<<"${value[$scenario-server-p99]}"
  read -ra c50 <<<"${value[$scenario-ceiling-p50]}"
  read -ra c99 <<<"${value[$scenario-ceiling-p99]}"
  read -ra se <<<"${value[$scenario-server-errors]}"
  read -ra ce <<<"${value[$scenario-ceiling-errors]}"
  for i in "${!sr[@]}"; do
    printf '| %d | %s | %s | %s | %s | %s | %s | %s | %s |\n' $((i + 1)) \
      "$(fmt "$(calc "${sr[$i]} * $multiplier")")" "$(fixed "${s50[$i]}" 2)" "$(fixed "${s99[$i]}" 2)" "$(fixed "${se[$i]}" 0)" \
      "$(fmt "$(calc "${cr[$i]} * $multiplier")")" "$(fixed "${c50[$i]}" 2)" "$(fixed "${c99[$i]}" 2)" "$(fixed "${ce[$i]}" 0)"
  done
}

# transport_row SCENARIO LABEL CONNECTIONS THROUGHPUT_TARGET: one row of the
# transport table (D-T2): medians of server and ceiling, the median
# per-run ratios, and the verdicts (p99 <= 1.25 x the ceiling's; with
# THROUGHPUT_TARGET "yes", requests/s >= 0.9 x the ceiling's).
transport_row() {
  local scenario=$1 label=$2 count=$3 p99_ratio rate_ratio rate_target="" rate_verdict=""
  p99_ratio=$(ratio_median "$scenario" p99)
  rate_ratio=$(ratio_median "$scenario" rate)
  if [ "$4" = yes ]; then
    rate_target=">= 0.9 x"
    rate_verdict=$(verdict "$rate_ratio >= 0.9")
  fi
  printf '| %s | %s | %s / %s ms | %s / %s ms | %s x | %s | %s | %s | %s x | %s | %s |\n' "$label" "$count" \
    "$(fixed "$(m "$scenario-server-p50")" 2)" "$(fixed "$(m "$scenario-server-p99")" 2)" \
    "$(fixed "$(m "$scenario-ceiling-p50")" 2)" "$(fixed "$(m "$scenario-ceiling-p99")" 2)" \
    "$(fixed "$p99_ratio" 2)" "$(verdict "$p99_ratio <= 1.25")" \
    "$(fmt "$(m "$scenario-server-rate")")" "$(fmt "$(m "$scenario-ceiling-rate")")" "$(fixed "$rate_ratio" 2)" \
    "$rate_target" "$rate_verdict"
}

# per_run_table SCENARIO TITLE UNIT: the per-run table of SCENARIO.
per_run_table() {
  printf '%s:\n\n' "$2"
  printf '| run | server %s | p50 | p99 | errors | ceiling %s | p50 | p99 | errors |\n' "$3" "$3"
  printf '|---|---|---|---|---|---|---|---|---|\n'
  per_run_rows "$1" 1
}

mkdir -p "$(dirname "$output")"
{
  cat <<EOF
# Benchmark results

Written by \`make bench\` (\`bench/run.sh $(rel "$build")\`) from one run: $started_at to $finished_at.

- Machine: $(nproc) cores ($cpu_model), $memory_total, $(uname -sr). Load average $load_at_start at the
  start (above about 1, something else was running), $load_after_http after the HTTP runs and $load_at_end at the
  end (the runs' own 64 workers and wrk raise it). A shared machine: every figure is noisy; read the medians and
  the ratios to the ceiling, which was measured in the same minutes.
- The load generator (wrk, $threads threads) runs on the same $(nproc) cores as the server it measures.
- Build: commit $commit ($tree_state), $build_type, $compiler. $wrk_version.
- Engine times are CPU time (Google Benchmark's \`cpu_time\`), so time spent descheduled by other processes is not
  counted; HTTP figures are wall-clock.

## Figures and targets

| figure | median | ceiling (median) | ratio to ceiling | target | verdict |
|---|---|---|---|---|---|
| engine (a): Digital Link (01)+(10)+(21)+(17) + linkType, per code | $(fixed "$engine_dl" 0) ns | | | <= 500 ns | $(verdict "$engine_dl <= 500") |
| engine (b): the same as an element string, per code | $(fixed "$engine_es" 0) ns | | | | |
| engine (c): a definition with three faults, per code | $(fixed "$engine_faults" 0) ns | | | | |
| engine (d): 10,000-item mixed batch with JSON in and out, per code | $(fixed "$(calc "$engine_batch_us * 1000")" 0) ns ($(fixed "$engine_batch_ms" 1) ms a batch) | | | | |
| /codes, one item, $connections connections: requests/s | $(fmt "$single_rps") | $(fmt "$single_ceiling_rps") | $(pct "$single_ratio") % | >= 80 % of the ceiling | $(verdict "$single_ratio >= 0.8") |
| /codes, one item: p50 latency | $(fixed "$single_p50" 2) ms | $(fixed "$single_ceiling_p50" 2) ms | | | |
| /codes, one item: p99 latency | $(fixed "$single_p99" 2) ms | $(fixed "$single_ceiling_p99" 2) ms | | < 2 ms | $(verdict "$single_p99 < 2") |
| /codes, 1,000-item batches, $connections connections: codes/s | $(fmt "$batch_codes") | $(fmt "$batch_ceiling_codes") | $(pct "$batch_ratio") % | >= 500,000 | $(verdict "$batch_codes >= 500000") |
| /codes, 1,000-item batches: p50 / p99 latency | $(fixed "$batch_p50" 1) / $(fixed "$batch_p99" 1) ms | $(fixed "$batch_ceiling_p99" 1) ms (p99) | | | |
| /oauth/token, $connections connections: tokens/s (the ceiling issues tokens too) | $(fmt "$token_rps") | $(fmt "$token_ceiling_rps") | $(pct "$token_ratio") % | >= 5,000 | $(verdict "$token_rps >= 5000") |
| /oauth/token: p99 latency | $(fixed "$token_p99" 1) ms | $(fixed "$token_ceiling_p99" 1) ms | | | |
| idle server, rules loaded: resident set (first start / restart) | $(mib "$rss_first_start") / $(mib "$rss_idle") MiB | $(mib "$rss_ceiling_idle") MiB | | < 40 MiB | $(verdict "$rss_idle_worst < 40 * 1024") |
| one 10,000-item batch at a time: peak extra memory | $(mib "$extra_one_kib") MiB = $(fixed "$extra_one_ratio" 1) x the $(fixed "$(calc "$batch10k_request_bytes / 1048576" 2)" 2) MiB request | | | <= ~20 x the request | $(verdict "$extra_one_ratio <= 20") |
| /oauth/token failure paths: median of an unknown client id minus a wrong secret | $timing_difference ns ($timing_unknown / $timing_wrong ns, Mann-Whitney p = $timing_p) | | | \|difference\| < 500 ns | $timing_verdict |
| $connections connections of 10,000-item batches: peak resident set | $(mib "$hwm_many") MiB ($(mib "$extra_many_kib") MiB above the server before them, $(mib "$(( extra_many_kib / connections ))") MiB a connection) | | | | |

Ratios to the ceiling are the median of the per-run ratios (server run 1 against ceiling run 1, and so on).
Requests that failed are not counted (errors in every HTTP run of this file: $(fixed "$all_errors" 0)).
Idle memory is VmRSS 2 s after the server listens: on the first start (which imports the shipped baseline into a
new rules.db) and after a restart on that data dir; the verdict takes the larger. Peak extra memory is VmHWM while
serving, less VmRSS just before (the peak is reset through \`/proc/PID/clear_refs\` first); the one-connection run
sends the first 10,000-item batches this server sees, after a second of one-item requests, so buffers that a worker
keeps for its next request count as extra.

## Transport against the ceiling (issue 10)

The server runs $workers workers (\`http.maxThreads\`) and has no per-address limit; it holds no worker for a
connection that waits for its client, so it answers every connection at once. The ceiling is Poco's
thread-per-connection server: it runs a worker per connection ($ceiling_workers at $connections connections,
$many_workers at $many_connections), so that it too answers every connection at once (with fewer, the connections
beyond its workers wait in its queue unanswered until a served one closes, and wrk's percentiles only see the
answered ones). With every
connection answered, a request's latency is about the connections over the throughput (Little's law).
Latencies are the medians over the runs of each wrk run's p50 and p99, wall-clock; ratios are the medians of the
per-run ratios, server over ceiling.
Targets (issue 10): p99 within 1.25 x the ceiling's on every path; one-item throughput at least 0.9 x the ceiling's.
The token path's ceiling issues a token for each request (\`codepayload_ceiling_server --issue-tokens\`: the server's
issuer, a new key of the server's default type), so its ratios measure what the service adds to the signature: the
form, client authentication, the registry, the throttle and usage counting (decision D-T4).

| path | connections | server p50 / p99 | ceiling p50 / p99 | p99 ratio | p99 <= 1.25 x | server req/s | ceiling req/s | throughput ratio | target | verdict |
|---|---|---|---|---|---|---|---|---|---|---|
$(transport_row healthz "GET /healthz" "$connections" no)
$(transport_row healthz-many "GET /healthz" "$many_connections" no)
$(transport_row single "POST /codes, one item" "$connections" yes)
$(transport_row single-many "POST /codes, one item" "$many_connections" yes)
$(transport_row token "POST /oauth/token" "$connections" no)
$(transport_row token-many "POST /oauth/token" "$many_connections" no)

## Workloads

- Health: \`GET /healthz\`, answered with $health_response_bytes bytes (no authentication, no work).
- Single item: one Digital Link definition, (01)+(10)+(21)+(17) with \`linkType\` gs1:pip, $single_request_bytes bytes;
  the answer is $single_response_bytes bytes (one code, no failures; checked before the runs).
- Batches: 1,000 valid definitions alternating between that Digital Link and the same AIs as an element string, each
  with its own serial (21): $(fmt "$batch_request_bytes") bytes, answered with $(fmt "$batch_response_bytes") bytes
  (1,000 codes, no failures; checked). The memory runs send 10,000 of them: $(fmt "$batch10k_request_bytes") bytes,
  answered with $(fmt "$batch10k_response_bytes") bytes.
- Tokens: \`grant_type=client_credentials\` with HTTP Basic client authentication, cycling through $token_clients
  clients per run (a fresh set each run: the server caps the tokens one client may mint per minute); the answer
  (an ES256 JWT) is $token_response_bytes bytes.
- The ceiling (\`codepayload_ceiling_server\`) reads the same configuration, uses the same certificate, TLS context,
  thread pool, timeouts and keep-alive settings, reads every body with Poco's reader and answers each
  scenario with a fixed body of the server's answer size, but for tokens: there it issues a token per request.
- Every wrk run keeps its connections alive; the server closes a connection after 1,000 requests
  (\`http.maxKeepAliveRequests\`), the ceiling too. The server writes its access log to a file, as deployed.

## Every run

/codes, one item (requests/s, latency in ms):

| run | server req/s | p50 | p99 | errors | ceiling req/s | p50 | p99 | errors |
|---|---|---|---|---|---|---|---|---|
$(per_run_rows single 1)

/codes, 1,000-item batches (codes/s, latency in ms):

| run | server codes/s | p50 | p99 | errors | ceiling codes/s | p50 | p99 | errors |
|---|---|---|---|---|---|---|---|---|
$(per_run_rows batch 1000)

/oauth/token (tokens/s, latency in ms):

| run | server tokens/s | p50 | p99 | errors | ceiling answers/s | p50 | p99 | errors |
|---|---|---|---|---|---|---|---|---|
$(per_run_rows token 1)

$(per_run_table healthz "GET /healthz, $connections connections (requests/s, latency in ms)" req/s)

$(per_run_table healthz-many "GET /healthz, $many_connections connections (requests/s, latency in ms)" req/s)

$(per_run_table single-many "/codes, one item, $many_connections connections (requests/s, latency in ms)" req/s)

$(per_run_table token-many "/oauth/token, $many_connections connections (tokens/s, latency in ms)" tokens/s)

Token endpoint failure timing (\`TokenEndpoint::handle\` in process, wall-clock; decision D-S5 in docs/decisions.md):

\`\`\`
$(grep '^TIMING ' "$work/timing.log")
\`\`\`

Engine (medians of $engine_repetitions repetitions, CPU time):

\`\`\`
$(grep -E '^BM_' "$work/engine.log" | grep -Ev '_(mean|stddev|cv) ')
\`\`\`

## Commands

\`\`\`sh
make bench    # = scripts/install-deps.sh (with libbenchmark-dev wrk valgrind), then:
cmake -S . -B $(rel "$build") -G Ninja -DCMAKE_BUILD_TYPE=Release -DCODEPAYLOAD_BENCH=ON -DCODEPAYLOAD_TESTS=OFF
cmake --build $(rel "$build")
BENCH_RUNS=$runs BENCH_DURATION=$duration BENCH_THREADS=$threads BENCH_CONNECTIONS=$connections BENCH_MANY_CONNECTIONS=$many_connections \\
  BENCH_WORKERS=$workers BENCH_TOKEN_CLIENTS=$token_clients \\
  BENCH_MEMORY_DURATION=$memory_duration BENCH_ENGINE_REPETITIONS=$engine_repetitions BENCH_TIMING_ROUNDS=$timing_rounds bench/run.sh $(rel "$build")
\`\`\`

What bench/run.sh ran (DATA is its temporary data dir; PORT, CEILING_PORT: ports the kernel chose):

\`\`\`sh
CODEPAYLOAD_DATA_DIR=DATA CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_ACCESS_LOG=DATA/../access.log \\
  CODEPAYLOAD_SHUTDOWN_GRACE=2 CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS=0 CODEPAYLOAD_THREADS=$workers $(rel "$server")   # started twice
CODEPAYLOAD_DATA_DIR=DATA $(rel "$admin") org create --name bench --plan starter
CODEPAYLOAD_DATA_DIR=DATA $(rel "$admin") client create --org ORG --scope write:codes   # 1 + $runs x 2 x $token_clients
curl -sk -u "\$CLIENT_ID:\$CLIENT_SECRET" -d grant_type=client_credentials https://127.0.0.1:PORT/oauth/token
CODEPAYLOAD_DATA_DIR=DATA CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_THREADS=$workers $(rel "$ceiling") \\
  --response-bytes $health_response_bytes|$single_response_bytes|$batch_response_bytes|$token_response_bytes --content-type application/json|$codes_type --port-file FILE
# memory (after echo 5 > /proc/SERVER_PID/clear_refs; VmRSS and VmHWM from /proc/SERVER_PID/status):
BENCH_TOKEN=\$TOKEN BENCH_BATCH_ITEMS=10000 wrk -t 1 -c 1 -d ${memory_duration}s --timeout 10s --latency -s bench/wrk/codes_batch.lua https://127.0.0.1:PORT
BENCH_TOKEN=\$TOKEN BENCH_BATCH_ITEMS=10000 wrk -t $threads -c $connections -d ${memory_duration}s --timeout 10s --latency -s bench/wrk/codes_batch.lua https://127.0.0.1:PORT
# $runs times each, against PORT and CEILING_PORT in turn (healthz, one item and token also with -c $many_connections):
wrk -t $threads -c $connections -d ${duration}s --timeout 10s --latency -s bench/wrk/healthz.lua https://127.0.0.1:PORT
BENCH_TOKEN=\$TOKEN wrk -t $threads -c $connections -d ${duration}s --timeout 10s --latency -s bench/wrk/codes_single.lua https://127.0.0.1:PORT
BENCH_TOKEN=\$TOKEN BENCH_BATCH_ITEMS=1000 wrk -t $threads -c $connections -d ${duration}s --timeout 10s --latency -s bench/wrk/codes_batch.lua https://127.0.0.1:PORT
BENCH_CLIENTS_FILE=CLIENTS_OF_THE_RUN wrk -t $threads -c $connections -d ${duration}s --timeout 10s --latency -s bench/wrk/token.lua https://127.0.0.1:PORT
# first, before any server started:
$(rel "$engine_bench") --benchmark_repetitions=$engine_repetitions --benchmark_report_aggregates_only=true
$(rel "$failure_timing") $timing_rounds db/registry
\`\`\`

Why the misses, with callgrind profiles of the hot paths, what changed because of them and what should change next:
[docs/performance.md](../../docs/performance.md).
EOF
} >"$output.tmp"
mv "$output.tmp" "$output"
echo "== wrote $(rel "$output")"
