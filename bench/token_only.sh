#!/usr/bin/env bash
# bench/token_only.sh BUILD_DIR...: only the /oauth/token scenario of
# bench/run.sh, to compare builds in one session (docs/performance.md).
# For each round (BENCH_RUNS, 3) and each BUILD_DIR in turn: a fresh server of
# that build on a temporary data dir, BENCH_TOKEN_CLIENTS (1000) API clients,
# then wrk against the server and against that build's ceiling server
# (--issue-tokens: builds from decision D-T4 on), alternating as bench/run.sh does. Prints one line a wrk run and, per build,
# the median tokens/s and the medians of the per-run ratios to the ceiling
# (throughput and p99).
# Settings as in bench/run.sh: BENCH_RUNS, BENCH_DURATION (10), BENCH_THREADS
# (2), BENCH_CONNECTIONS (32), BENCH_TOKEN_CLIENTS (1000).
set -euo pipefail

script_name=bench/token_only.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || { echo "usage: bench/token_only.sh BUILD_DIR..." >&2; exit 64; }
repo=$(cd "$(dirname "$0")/.." && pwd)
runs=${BENCH_RUNS:-3}
duration=${BENCH_DURATION:-10}
threads=${BENCH_THREADS:-2}
connections=${BENCH_CONNECTIONS:-32}
token_clients=${BENCH_TOKEN_CLIENTS:-1000}
for setting in runs duration threads connections token_clients; do
  [[ ${!setting} =~ ^[1-9][0-9]*$ ]] || die "$setting must be a whole number >= 1, not '${!setting}'"
done
builds=()
for dir in "$@"; do
  [ -d "$dir" ] || die "no build directory $dir"
  build=$(cd "$dir" && pwd)
  require_built "$build" "$build/server/codepayload-server" "$build/tools/admin/codepayload-admin" \
    "$build/bench/codepayload_ceiling_server"
  builds+=("$build")
done

work=$(mktemp -d "${TMPDIR:-/tmp}/codepayload-token-bench.XXXXXX")
chmod 700 "$work"
pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_started_processes
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for_file FILE PID: until FILE exists; fails when PID died.
wait_for_file() {
  local waited=0
  while [ ! -s "$1" ]; do
    kill -0 "$2" 2>/dev/null || die "process $2 ended before writing $1"
    [ $waited -lt 3000 ] || die "no $1 after 300 s"
    sleep 0.1
    waited=$((waited + 1))
  done
}

# run_wrk LABEL URL: one wrk run of token.lua; prints "LABEL p99_ms tokens/s".
run_wrk() {
  local line requests non2xx duration_us p99_us
  line=$(BENCH_CLIENTS_FILE="$work/clients.txt" wrk -t "$threads" -c "$connections" -d "${duration}s" --timeout 10s \
    --latency -s "$repo/bench/wrk/token.lua" "$2" | grep '^BENCH ') || die "wrk failed: $1"
  requests=$(sed -n 's/.* requests=\([0-9]*\).*/\1/p' <<<"$line")
  non2xx=$(sed -n 's/.* non2xx=\([0-9]*\).*/\1/p' <<<"$line")
  duration_us=$(sed -n 's/.* duration_us=\([0-9]*\).*/\1/p' <<<"$line")
  p99_us=$(sed -n 's/.* p99_us=\([0-9]*\).*/\1/p' <<<"$line")
  awk -v label="$1" -v ok=$((requests - non2xx)) -v us="$duration_us" -v p99="$p99_us" \
    'BEGIN { printf "%s p99_ms=%.2f %.1f\n", label, p99 / 1000, ok / (us / 1e6) }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A rates ratios p99_ratios
for run in $(seq "$runs"); do
  for index in "${!builds[@]}"; do
    build=${builds[$index]}
    data=$work/data-$run-$index
    env CODEPAYLOAD_DATA_DIR="$data" CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_ACCESS_LOG="$work/access.log" \
      CODEPAYLOAD_SHUTDOWN_GRACE=2 CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS=0 \
      "$build/server/codepayload-server" >>"$work/server.log" 2>&1 &
    server_pid=$!
    pids+=("$server_pid")
    wait_for_file "$data/server.port" "$server_pid"
    export CODEPAYLOAD_DATA_DIR=$data
    "$build/tools/admin/codepayload-admin" org create --name bench --plan starter >"$work/org.json"
    org=$(json_field "$work/org.json" id)
    : >"$work/clients.txt"
    for _ in $(seq "$token_clients"); do
      "$build/tools/admin/codepayload-admin" client create --org "$org" --scope write:codes >"$work/client.json"
      printf 'Basic %s\n' "$(printf '%s:%s' "$(json_field "$work/client.json" clientId)" \
        "$(json_field "$work/client.json" clientSecret)" | base64 -w0)" >>"$work/clients.txt"
    done
    sleep 1 # the server's registry view refreshes every 250 ms
    status=$(curl -sk -o /dev/null -w '%{http_code}' -H "Authorization: $(head -1 "$work/clients.txt")" \
      -d grant_type=client_credentials "https://127.0.0.1:$(cat "$data/server.port")/oauth/token")
    [ "$status" = 200 ] || die "/oauth/token answered $status on build $build"
    env CODEPAYLOAD_LISTEN=127.0.0.1:0 "$build/bench/codepayload_ceiling_server" --issue-tokens \
      --port-file "$work/ceiling.port" >"$work/ceiling.log" 2>&1 &
    ceiling_pid=$!
    pids+=("$ceiling_pid")
    wait_for_file "$work/ceiling.port" "$ceiling_pid"
    order=(server ceiling)
    [ $((run % 2)) -eq 0 ] && order=(ceiling server)
    for target in "${order[@]}"; do
      port=$(cat "$data/server.port")
      [ "$target" = ceiling ] && port=$(cat "$work/ceiling.port")
      result=$(run_wrk "run=$run build=$index target=$target" "https://127.0.0.1:$port")
      echo "$result"
      eval "rate_$target=${result##* }"
      p99=${result#*p99_ms=}
      eval "p99_$target=${p99%% *}"
    done
    rates[$index]+="$rate_server "
    ratios[$index]+="$(awk -v s="$rate_server" -v c="$rate_ceiling" 'BEGIN { printf "%.4f", s / c }') "
    p99_ratios[$index]+="$(awk -v s="$p99_server" -v c="$p99_ceiling" 'BEGIN { printf "%.4f", s / c }') "
    stop_process "$ceiling_pid"
    stop_process "$server_pid"
    rm -f "$work/ceiling.port"
    unset CODEPAYLOAD_DATA_DIR
  done
done
for index in "${!builds[@]}"; do
  # shellcheck disable=SC2086
  echo "build=$index ${builds[$index]}: tokens/s median $(median ${rates[$index]}) (runs: ${rates[$index]% })," \
    "ratio to the ceiling median $(median ${ratios[$index]}) (runs: ${ratios[$index]% });" \
    "p99 ratio median $(median ${p99_ratios[$index]}) (runs: ${p99_ratios[$index]% })"
done
