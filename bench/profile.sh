#!/usr/bin/env bash
# bench/profile.sh BUILD_DIR [OUT_DIR]: the callgrind profiles behind
# docs/performance.md. Instruction counts (Ir) do not depend on how busy the
# machine is, so they compare across runs and machines of the same build.
#
#  1. The engine per code: codepayload_engine_profile, collecting only its
#     measured loop, for each benchmark case.
#  2. The server end to end per request: codepayload-server under callgrind,
#     collecting its connection (codepayload::server::serveHttpConnection:
#     request parsing, TLS reads and writes, the handler, the access log),
#     and the ceiling's (Poco::Net::HTTPServerConnection::run), for one-item /codes
#     requests, 1,000-item /codes batches and /oauth/token requests, each
#     sent by curl over one keep-alive connection. The ceiling server gets
#     the same one-item and batch requests.
#  3. System calls per request (strace -c), server and ceiling, when strace
#     is installed.
#
# OUT_DIR (default: a new temporary directory) receives, per profile, the
# callgrind file and callgrind_annotate's exclusive and inclusive listings;
# summary.txt has the per-code and per-request figures. Processes it starts
# are stopped on exit; the data dir with its secrets is removed.
set -euo pipefail

script_name=bench/profile.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: bench/profile.sh BUILD_DIR [OUT_DIR]" >&2
  exit 64
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$1" ] || die "no build directory $1"
build=$(cd "$1" && pwd)
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/codepayload-profile.XXXXXX")}
mkdir -p "$out"
out=$(cd "$out" && pwd)

server=$build/server/codepayload-server
admin=$build/tools/admin/codepayload-admin
ceiling=$build/bench/codepayload_ceiling_server
engine_profile=$build/bench/codepayload_engine_profile
require_built "$build" "$server" "$admin" "$ceiling" "$engine_profile"
for tool in valgrind callgrind_annotate callgrind_control curl wrk; do
  command -v "$tool" >/dev/null || die "$tool is not installed (make bench installs valgrind and wrk)"
done

single_requests=${PROFILE_SINGLE_REQUESTS:-1000}
batch_requests=${PROFILE_BATCH_REQUESTS:-20}
token_requests=${PROFILE_TOKEN_REQUESTS:-200}
engine_repetitions=${PROFILE_ENGINE_REPETITIONS:-20000}
batch_engine_repetitions=${PROFILE_BATCH_ENGINE_REPETITIONS:-5}
for setting in single_requests batch_requests token_requests engine_repetitions batch_engine_repetitions; do
  [[ ${!setting} =~ ^[1-9][0-9]*$ ]] || die "$setting must be a whole number >= 1, not '${!setting}'"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/codepayload-profile-work.XXXXXX")
chmod 700 "$work"
pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_started_processes 600
  rm -rf "$work"
  [ $status -eq 0 ] || echo "bench/profile.sh: failed (status $status)" >&2
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "bench/profile.sh: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

export CODEPAYLOAD_DATA_DIR=$work/data CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_ACCESS_LOG=$work/access.log \
  CODEPAYLOAD_SHUTDOWN_GRACE=2 CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS=0
summary=$out/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

callgrind_total() { sed -n 's/^summary: //p' "$1"; }
per() { awk -v total="$1" -v count="$2" 'BEGIN { printf "%.0f", total / count }'; }

# annotate NAME: exclusive and inclusive listings of $out/NAME.callgrind. A
# call that was already running when collection started has a call count of 0,
# and callgrind_annotate 3.19 then books the cost of the whole call as the
# caller's own (clone() would own 100%): such counts are read as 1.
annotate() {
  sed 's/^calls=0 /calls=1 /' "$out/$1.callgrind" >"$work/annotate.callgrind"
  callgrind_annotate --inclusive=no "$work/annotate.callgrind" >"$out/$1.self.txt" 2>/dev/null
  callgrind_annotate --inclusive=yes "$work/annotate.callgrind" >"$out/$1.inclusive.txt" 2>/dev/null
}

# --- 1. engine -----------------------------------------------------------------
for case_name in digital-link element-string three-faults mixed-batch; do
  repetitions=$engine_repetitions
  [ "$case_name" = mixed-batch ] && repetitions=$batch_engine_repetitions
  valgrind --tool=callgrind --callgrind-out-file="$out/engine-$case_name.callgrind" --toggle-collect='*profiledLoop*' \
    "$engine_profile" "$case_name" "$repetitions" >"$work/engine.log" 2>&1 || { cat "$work/engine.log" >&2; die "engine $case_name"; }
  codes=$(sed -n 's/^codes processed: //p' "$work/engine.log")
  annotate "engine-$case_name"
  note "engine $case_name: $(per "$(callgrind_total "$out/engine-$case_name.callgrind")" "$codes") Ir per code ($codes codes)"
done

# --- 2. server and ceiling ---------------------------------------------------------
wait_for_file() {
  local file=$1 pid=$2 waited=0
  while [ ! -s "$file" ]; do
    kill -0 "$pid" 2>/dev/null || die "process $pid ended before writing $file"
    [ $waited -lt 1800 ] || die "no $file after 180 s"
    sleep 0.1
    waited=$((waited + 1))
  done
}

# The data dir: rules database, an organization, a client, a token and the
# request bodies, prepared by a server run without valgrind.
"$server" >"$work/server.log" 2>&1 &
plain_pid=$!
pids+=("$plain_pid")
wait_for_file "$work/data/server.port" "$plain_pid"
port=$(cat "$work/data/server.port")
"$admin" org create --name profile --plan starter >"$work/org.json"
"$admin" client create --org "$(json_field "$work/org.json" id)" --scope write:codes >"$work/client.json"
client_id=$(json_field "$work/client.json" clientId)
client_secret=$(json_field "$work/client.json" clientSecret)
sleep 1
curl -sk -o "$work/token.json" -u "$client_id:$client_secret" -d grant_type=client_credentials \
  "https://127.0.0.1:$port/oauth/token"
token=$(json_field "$work/token.json" access_token)
[ -n "$token" ] || die "no token: $(cat "$work/token.json")"
BENCH_TOKEN=$token BENCH_BODY_FILE=$work/single.json wrk -t1 -c1 -d1s -s "$repo/bench/wrk/codes_single.lua" \
  "https://127.0.0.1:$port" >/dev/null
BENCH_TOKEN=$token BENCH_BODY_FILE=$work/batch.json wrk -t1 -c1 -d1s -s "$repo/bench/wrk/codes_batch.lua" \
  "https://127.0.0.1:$port" >/dev/null
# answer_bytes BODY: the size of the server's answer to BODY (the ceiling's).
answer_bytes() {
  curl -sk -H "Authorization: Bearer $token" -H 'Content-Type: application/json' --data-binary "@$1" -o /dev/null \
    -w '%{size_download}' "https://127.0.0.1:$port/codes"
}
single_answer_bytes=$(answer_bytes "$work/single.json")
batch_answer_bytes=$(answer_bytes "$work/batch.json")
stop_process "$plain_pid"

# requests PORT PATH COUNT BODY [curl options...]: COUNT POSTs over one
# connection; fails unless every answer is 200.
requests() {
  local target_port=$1 path=$2 count=$3 body=$4 urls=()
  shift 4
  while [ ${#urls[@]} -lt $((3 * count)) ]; do urls+=(-o /dev/null "https://127.0.0.1:$target_port$path"); done
  curl -sk "$@" --data-binary "@$body" -w '%{http_code}\n' "${urls[@]}" >"$work/statuses.txt"
  [ "$(grep -c '^200$' "$work/statuses.txt")" -eq "$count" ] ||
    die "$path on port $target_port: $(sort "$work/statuses.txt" | uniq -c | tr '\n' ' ')"
}
codes_headers=(-H "Authorization: Bearer $token" -H 'Content-Type: application/json')
printf 'grant_type=client_credentials' >"$work/token-form.txt"
token_headers=(-u "$client_id:$client_secret" -H 'Content-Type: application/x-www-form-urlencoded')

# profiled NAME COUNT COMMAND...: zero the counters of the profiled process,
# run COMMAND, dump, and keep the dump as $out/NAME.callgrind.
profiled() {
  local name=$1 count=$2 dump waited=0
  shift 2
  callgrind_control -z "$profiled_pid" >/dev/null 2>&1
  "$@"
  callgrind_control -d "$profiled_pid" >/dev/null 2>&1
  dump_number=$((dump_number + 1))
  dump=$work/$profiled_name.callgrind.$dump_number
  while [ ! -s "$dump" ]; do
    [ $waited -lt 300 ] || die "callgrind wrote no dump for $name"
    sleep 0.1
    waited=$((waited + 1))
  done
  mv "$dump" "$out/$name.callgrind"
  annotate "$name"
  note "$name: $(per "$(callgrind_total "$out/$name.callgrind")" "$count") Ir per request ($count requests)"
}

# start_profiled NAME FUNCTION COMMAND...: COMMAND under callgrind, counting
# only inside FUNCTION (the connection's loop).
start_profiled() {
  profiled_name=$1
  profiled_function=$2
  dump_number=0
  shift 2
  rm -f "$work/data/server.port" "$work/ceiling.port"
  valgrind --tool=callgrind --callgrind-out-file="$work/$profiled_name.callgrind" --compress-strings=no --collect-atstart=no \
    --toggle-collect="$profiled_function" "$@" >"$work/$profiled_name.log" 2>&1 &
  profiled_pid=$!
  pids+=("$profiled_pid")
}

start_profiled server '*serveHttpConnection*' "$server"
wait_for_file "$work/data/server.port" "$profiled_pid"
port=$(cat "$work/data/server.port")
requests "$port" /codes 20 "$work/single.json" "${codes_headers[@]}"
profiled server-codes-single "$single_requests" \
  requests "$port" /codes "$single_requests" "$work/single.json" "${codes_headers[@]}"
profiled server-codes-batch "$batch_requests" \
  requests "$port" /codes "$batch_requests" "$work/batch.json" "${codes_headers[@]}"
profiled server-token "$token_requests" \
  requests "$port" /oauth/token "$token_requests" "$work/token-form.txt" "${token_headers[@]}"
stop_process "$profiled_pid"

for scenario in single batch; do
  answer_size=$single_answer_bytes
  [ "$scenario" = batch ] && answer_size=$batch_answer_bytes
  count=$single_requests
  [ "$scenario" = batch ] && count=$batch_requests
  start_profiled "ceiling-$scenario" 'Poco::Net::HTTPServerConnection::run()' "$ceiling" --response-bytes "$answer_size" --port-file "$work/ceiling.port"
  wait_for_file "$work/ceiling.port" "$profiled_pid"
  port=$(cat "$work/ceiling.port")
  requests "$port" /codes 2 "$work/$scenario.json" "${codes_headers[@]}"
  profiled "ceiling-codes-$scenario" "$count" requests "$port" /codes "$count" "$work/$scenario.json" "${codes_headers[@]}"
  stop_process "$profiled_pid"
done

# --- 3. system calls ---------------------------------------------------------------
if command -v strace >/dev/null; then
  for target in server ceiling; do
    rm -f "$work/data/server.port" "$work/ceiling.port"
    if [ "$target" = server ]; then
      "$server" >"$work/plain-server.log" 2>&1 &
      pid=$!
      port_file=$work/data/server.port
    else
      "$ceiling" --response-bytes "$single_answer_bytes" --port-file "$work/ceiling.port" >"$work/plain-ceiling.log" 2>&1 &
      pid=$!
      port_file=$work/ceiling.port
    fi
    pids+=("$pid")
    wait_for_file "$port_file" "$pid"
    port=$(cat "$port_file")
    requests "$port" /codes 20 "$work/single.json" "${codes_headers[@]}"
    strace -f -c -o "$out/$target-codes-single.strace.txt" -p "$pid" 2>/dev/null &
    strace_pid=$!
    sleep 1
    requests "$port" /codes 500 "$work/single.json" "${codes_headers[@]}"
    sleep 0.5
    kill -INT "$strace_pid"
    wait "$strace_pid" || true
    stop_process "$pid"
    calls=$(awk '$NF == "total" { print $(NF - 2) }' "$out/$target-codes-single.strace.txt")
    note "$target one-item /codes: $(awk -v c="$calls" 'BEGIN { printf "%.1f", c / 500 }') system calls per request (500 requests)"
  done
else
  note "system calls: skipped (strace is not installed)"
fi

note "profiles in $out"
