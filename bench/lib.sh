# shellcheck shell=bash disable=SC2154
# Shell helpers shared by the benchmark scripts (sourced). The caller sets
# `script_name` first and keeps the pids it starts in `pids`; the helpers that
# write files put them in `work`, the caller's temporary directory (0700), and
# those that start or drive the service use `server`, `admin` (the binaries),
# `workers` (http.maxThreads) and `wrk_dir` (bench/wrk).

die() {
  echo "$script_name: $*" >&2
  exit 1
}

# stop_process PID [TENTHS]: SIGTERM, then SIGKILL after TENTHS tenths of a
# second (default 150), then reaps it.
stop_process() {
  local pid=$1 limit=${2:-150} waited=0
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt "$limit" ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

stop_started_processes() {
  local pid
  for pid in "${pids[@]}"; do stop_process "$pid" "$@"; done
}

# require_built BUILD_DIR BINARY...: each BINARY exists and is executable.
require_built() {
  local build=$1 binary
  shift
  for binary in "$@"; do
    [ -x "$binary" ] || die "missing $binary (build $build with -DCODEPAYLOAD_BENCH=ON)"
  done
}

# json_field FILE NAME: the string value of "NAME" in the JSON of FILE.
json_field() { sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p" "$1"; }

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# calc EXPRESSION [DECIMALS]: awk's value of EXPRESSION, rounded.
calc() { awk "BEGIN { printf \"%.${2:-0}f\", $1 }"; }

# The caller's runs are in the associative array `value`: value[KEY] holds one figure per run,
# space-separated, in run order.
# m KEY: the median of value[KEY]'s runs.
m() {
  local runs_of_key
  read -ra runs_of_key <<<"${value[$1]}"
  median "${runs_of_key[@]}"
}

# verdict CONDITION: "pass" when the awk CONDITION holds, else "miss".
verdict() { if awk "BEGIN { exit !($1) }"; then echo pass; else echo miss; fi; }

# median_ratio KEY BASELINE_KEY: the median over the runs of value[KEY] / value[BASELINE_KEY],
# run by run.
median_ratio() {
  local figures baselines ratios=() i
  read -ra figures <<<"${value[$1]}"
  read -ra baselines <<<"${value[$2]}"
  for i in "${!figures[@]}"; do ratios+=("$(calc "${figures[$i]} / ${baselines[$i]}" 4)"); done
  median "${ratios[@]}"
}

# fmt NUMBER: rounded, with thousands separators (53,787).
fmt() { awk -v v="$1" 'BEGIN { s = sprintf("%.0f", v); out = ""; while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) } print s out }'; }

fixed() { calc "$1" "$2"; }

# wait_for_file FILE PID SECONDS: until FILE exists; fails when PID died.
wait_for_file() {
  local file=$1 pid=$2 limit=$(($3 * 10)) waited=0
  while [ ! -s "$file" ]; do
    kill -0 "$pid" 2>/dev/null || die "process $pid ended before writing $file (see $work/*.log)"
    [ $waited -lt $limit ] || die "no $file after $3 s"
    sleep 0.1
    waited=$((waited + 1))
  done
}

# start_server DATA_DIR LOG ACCESS_LOG [VAR=VALUE...]: codepayload-server with
# $workers worker threads on DATA_DIR, listening on a loopback port the kernel
# chooses, with the further settings VAR=VALUE; its output is appended to LOG.
# Sets server_pid and server_port once it listens. Every wrk connection comes
# from 127.0.0.1: no per-address connection limit (the default, half the
# workers, is exactly wrk's 32 connections, and a reconnecting wrk could race
# the slot of the connection it replaces).
start_server() {
  local data=$1 log=$2 access_log=$3
  shift 3
  rm -f "$data/server.port"
  env CODEPAYLOAD_DATA_DIR="$data" CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_ACCESS_LOG="$access_log" \
    CODEPAYLOAD_SHUTDOWN_GRACE=2 CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS=0 CODEPAYLOAD_THREADS="$workers" \
    "$@" "$server" >>"$log" 2>&1 &
  server_pid=$!
  pids+=("$server_pid")
  wait_for_file "$data/server.port" "$server_pid" 300
  # shellcheck disable=SC2034 # for the caller
  server_port=$(cat "$data/server.port")
}

# basic_authorization CLIENT_JSON: "Basic ..." for the client codepayload-admin
# created in CLIENT_JSON (its clientId and clientSecret).
basic_authorization() {
  printf 'Basic %s\n' "$(printf '%s:%s' "$(json_field "$1" clientId)" "$(json_field "$1" clientSecret)" | base64 -w0)"
}

# create_client_lines FILE COUNT ORG: COUNT new API clients of ORG (scope
# write:codes), made with codepayload-admin in the caller's environment (its
# messages go to admin.log); FILE gets one complete Authorization value
# ("Basic ...") a line, for token.lua. FILE.json holds each client while it
# is read: callers may make several files at once.
create_client_lines() {
  local file=$1 count=$2 org=$3 created
  : >"$file"
  for _ in $(seq "$count"); do
    "$admin" client create --org "$org" --scope write:codes >"$file.json" 2>>"$work/admin.log" ||
      die "codepayload-admin client create failed: $(tail -1 "$work/admin.log")"
    basic_authorization "$file.json" >>"$file"
  done
  rm -f "$file.json"
  created=$(grep -c '^Basic ' "$file")
  [ "$created" -eq "$count" ] || die "created $created of $count clients"
}

# check_codes URL TOKEN BODY_FILE ITEMS: the service at URL answers the
# CodesRequest of BODY_FILE with 200 and ITEMS generated codes, no failures;
# prints the response size in bytes (the response is in codes-response.json).
check_codes() {
  local answer status bytes generated
  # The token through a file: a command line is visible to every user.
  printf 'Authorization: Bearer %s\n' "$2" >"$work/authorization.txt"
  answer=$(curl -sk -o "$work/codes-response.json" -w '%{http_code} %{size_download}' \
    -H "@$work/authorization.txt" -H 'Content-Type: application/json' --data-binary "@$3" "$1/codes")
  status=${answer% *}
  bytes=${answer#* }
  [ "$status" = 200 ] || die "/codes answered $status to $3: $(head -c 300 "$work/codes-response.json")"
  generated=$(grep -o '"barcodeText":' "$work/codes-response.json" | wc -l)
  [ "$generated" -eq "$4" ] || die "/codes generated $generated codes for $4 definitions in $3"
  grep -q '"failures":\[\]}$' "$work/codes-response.json" || die "/codes reported failures for $3"
  echo "$bytes"
}

# run_wrk NAME URL SCRIPT SECONDS THREADS CONNECTIONS [VAR=VALUE...]: one wrk
# run; its BENCH line is appended to runs.txt as "NAME <fields>".
run_wrk() {
  local name=$1 url=$2 script=$3 seconds=$4 wrk_threads=$5 wrk_connections=$6
  shift 6
  local log=$work/wrk-$name.log
  if ! env "$@" wrk -t "$wrk_threads" -c "$wrk_connections" -d "${seconds}s" --timeout 10s --latency \
    -s "$wrk_dir/$script" "$url" >"$log" 2>&1; then
    cat "$log" >&2
    die "wrk failed: $name"
  fi
  local line
  line=$(grep '^BENCH ' "$log") || { cat "$log" >&2; die "wrk printed no summary: $name"; }
  echo "$name ${line#BENCH }" >>"$work/runs.txt"
}

# run_values NAME FIELD_EXPRESSION: one value per run (1 to $runs) of the wrk
# runs named "NAME-RUN" in runs.txt, computed by awk from their BENCH fields
# (f["p99_us"], ...; `ok` is the 2xx answers, `seconds` the run's length).
run_values() {
  local name=$1 expression=$2 run line
  for run in $(seq "$runs"); do
    line=$(grep "^$name-$run " "$work/runs.txt")
    awk -v line="$line" "BEGIN {
      n = split(line, parts, \" \")
      for (i = 2; i <= n; i++) { split(parts[i], kv, \"=\"); f[kv[1]] = kv[2] }
      ok = f[\"requests\"] - f[\"non2xx\"]
      seconds = f[\"duration_us\"] / 1e6
      printf \"%.6f\\n\", $expression
    }"
  done
}
