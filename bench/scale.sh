#!/usr/bin/env bash
# bench/scale.sh BUILD_DIR: what the registry's database and HAProxy cost, measured side by
# side in one run and written to bench/results/scale.md (make bench-scale calls this).
#
# Two paths, each with wrk over HTTPS on loopback, bench/run.sh's scripts and report:
# POST /oauth/token (token.lua, cycling through a set of API clients that minted no token in
# the last minute) and one-item POST /codes (codes_single.lua), against five targets:
#
#  - sqlite:  one codepayload-server on the default registry (SQLite in its data dir);
#  - pg:      one codepayload-server on a PostgreSQL registry (the same binary, with
#             registry.url and a key-encryption key file), the baseline of the HAProxy rows;
#  - proxy1, proxy2, proxy3: Debian's HAProxy with the shipped deploy/haproxy/codepayload.cfg
#             in front of 1, 2 and 3 such instances on the same registry (its unused instance
#             slots point at a loopback port nobody listens on, which its health check takes
#             out before the runs).
#
# The PostgreSQL is a scratch cluster of Debian's postgresql-15, started by this script in a
# temporary directory on a free loopback port as the tests start theirs
# (tests/support/scratch_postgresql.cpp: scram-sha-256, fsync off, as user postgres when run
# as root), with one database and a role of its own for the instances; it is stopped with
# `pg_ctl -m fast` at the end. Targets alternate within each run (reversed on even runs),
# BENCH_RUNS times; the figures are medians, and each ratio is the median of the per-run
# ratios against the baseline measured in the same run (pg over sqlite; proxyN over pg).
# Target: PostgreSQL at least 0.9 x SQLite on both paths. While each wrk run lasts, the CPU
# time of the instances, of HAProxy and of PostgreSQL is read from /proc, so that the report
# can say what holds the cores: on a machine of few cores more instances add no CPU, only
# more processes sharing the same cores. The access logs tell how long the token requests
# that arrive in the first 10 ms of a second take against the others (the registry view
# vouches for one second at a time, docs/decisions.md D-T6).
#
# Every instance runs as bench/run.sh's server does (BENCH_WORKERS workers, access log to a
# file, no per-address connection limit), trusts 127.0.0.1 as its proxy
# (http.trustedProxies), as docs/scaling.md deploys it behind HAProxy, and serves its own
# development certificate, which HAProxy verifies (the instances' certificates in one CA
# file, each found by its own subject). A wrk run with any answer that is not 2xx fails the
# script; a 429 there means the clients' issuance cap (600 tokens a minute per client, held by
# each instance on its own): raise BENCH_TOKEN_CLIENTS.
#
# Settings (environment): BENCH_RUNS (3), BENCH_DURATION (seconds per wrk run, 10),
# BENCH_THREADS (wrk threads, 2), BENCH_CONNECTIONS (32), BENCH_WORKERS (http.maxThreads of
# config/codepayload.properties), BENCH_TOKEN_CLIENTS (API clients per token run, 100 per
# second of BENCH_DURATION: each may mint 600 tokens a minute on each instance, so these allow
# 60,000 tokens/s to an instance, as bench/run.sh's 1,000 clients over 10 s do),
# BENCH_SCALE_OUTPUT (bench/results/scale.md).
#
# Needs wrk, curl, openssl, /usr/sbin/haproxy and /usr/lib/postgresql/15/bin (make
# bench-scale installs them); as root it runs PostgreSQL as the user postgres. Every process
# it starts is stopped on exit, failure or interrupt. Secrets (the database's passwords, the
# key-encryption key, client secrets, tokens, HAProxy's private key) stay in its temporary
# directories (0700), which are removed.
set -euo pipefail

script_name=bench/scale.sh
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: bench/scale.sh BUILD_DIR" >&2; exit 64; }
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$1" ] || die "no build directory $1"
build=$(cd "$1" && pwd)

runs=${BENCH_RUNS:-3}
duration=${BENCH_DURATION:-10}
threads=${BENCH_THREADS:-2}
connections=${BENCH_CONNECTIONS:-32}
token_clients=${BENCH_TOKEN_CLIENTS:-$((100 * duration))}
output=${BENCH_SCALE_OUTPUT:-$repo/bench/results/scale.md}
default_workers=$(sed -n 's/^http\.maxThreads *= *\([0-9]*\) *$/\1/p' "$repo/config/codepayload.properties")
workers=${BENCH_WORKERS:-$default_workers}
for setting in runs duration threads connections workers token_clients; do
  [[ ${!setting} =~ ^[1-9][0-9]*$ ]] || die "$setting must be a whole number >= 1, not '${!setting}'"
done
[ "$threads" -le "$connections" ] || die "BENCH_THREADS ($threads) must not exceed BENCH_CONNECTIONS ($connections)"

server=$build/server/codepayload-server
admin=$build/tools/admin/codepayload-admin
require_built "$build" "$server" "$admin"
haproxy=/usr/sbin/haproxy
haproxy_cfg=$repo/deploy/haproxy/codepayload.cfg
pg_bin=/usr/lib/postgresql/15/bin
for tool in wrk curl openssl base64 awk sed; do
  command -v "$tool" >/dev/null || die "$tool is not installed (make bench-scale installs wrk, curl and openssl)"
done
[ -x "$haproxy" ] || die "no $haproxy (install haproxy: make bench-scale does)"
for tool in initdb pg_ctl psql; do
  [ -x "$pg_bin/$tool" ] || die "no $pg_bin/$tool (install postgresql-15: make bench-scale does)"
done
as_root=0
if [ "$(id -u)" -eq 0 ]; then
  as_root=1
  id postgres >/dev/null 2>&1 || die "running as root, but there is no user postgres to run PostgreSQL"
fi
wrk_dir=$repo/bench/wrk

umask 077
work=$(mktemp -d "${TMPDIR:-/tmp}/codepayload-scale.XXXXXX")
chmod 700 "$work"
pg_dir=""
pids=()
pg_started=0

# as_postgres COMMAND...: COMMAND as the user postgres when run as root (PostgreSQL refuses
# root), from / (root's home may be closed to postgres).
as_postgres() {
  if [ "$as_root" = 1 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_started_processes
  if [ "$pg_started" = 1 ]; then
    as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >>"$work/pg_ctl.log" 2>&1 ||
      echo "bench/scale.sh: pg_ctl stop failed (see $work/pg_ctl.log)" >&2
  fi
  if [ -n "$pg_dir" ]; then
    [ $status -eq 0 ] || cp "$pg_dir/log" "$work/postgresql.log" 2>/dev/null || true
    rm -rf "$pg_dir"
  fi
  if [ $status -eq 0 ]; then
    rm -rf "$work"
  else
    # Keep the logs for the post-mortem, never the secrets.
    rm -rf "$work"/sqlite "$work"/pg-* "$work/admin-data" "$work"/clients-* "$work"/making-* "$work"/*.json \
      "$work/key-encryption-key" "$work"/tls-*.pem "$work/authorization.txt"
    echo "bench/scale.sh: failed (status $status); logs kept in $work" >&2
  fi
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "bench/scale.sh: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

# PostgreSQL's own folder: the user postgres must reach it, and it cannot enter $work.
pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/codepayload-scale-pg.XXXXXX")
chmod 700 "$pg_dir"
[ "$as_root" = 0 ] || chown postgres: "$pg_dir"

# --- helpers ---------------------------------------------------------------

# free_port: a loopback TCP port no socket uses now, below Linux's ephemeral ports (32768 on),
# where the kernel puts the port-0 listeners of the instances. Another process may take it
# before it is bound; the callers then try another.
free_port() {
  local port
  while :; do
    port=$(((RANDOM * 32768 + RANDOM) % 22768 + 10000))
    grep -qs -- "$(printf ':%04X ' "$port")" /proc/net/tcp /proc/net/tcp6 || { echo "$port"; return; }
  done
}

# cpu_ticks PID...: the CPU time (user and system, with that of reaped children) the
# processes PID have used so far, in clock ticks; a process that is gone counts nothing.
cpu_ticks() {
  local pid stat fields total=0
  for pid in "$@"; do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    read -ra fields <<<"${stat##*) }"
    total=$((total + fields[11] + fields[12] + fields[13] + fields[14]))
  done
  echo "$total"
}

# postgresql_pids: the postmaster of the scratch cluster and its children (the instances'
# connections among them).
postgresql_pids() {
  local postmaster
  postmaster=$(head -1 "$pg_dir/data/postmaster.pid")
  echo "$postmaster"
  awk -v parent="$postmaster" 'FNR == 1 && $4 == parent { print $1 }' /proc/[0-9]*/stat 2>/dev/null || true
}

# cpu_snapshot: "NANOSECONDS BUSY STEAL INSTANCES HAPROXY POSTGRESQL": the clock, and clock
# ticks: all cores busy (user, nice, system, interrupts), stolen by the hypervisor, and used by
# the instances, the HAProxy processes and PostgreSQL.
cpu_snapshot() {
  local machine postgresql
  machine=$(awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $9; exit }' /proc/stat)
  mapfile -t postgresql < <(postgresql_pids)
  echo "$(date +%s%N) $machine $(cpu_ticks "${instance_pids[@]}") $(cpu_ticks "${proxy_pids[@]}")" \
    "$(cpu_ticks "${postgresql[@]}")"
}

# cpu_line NAME BEFORE AFTER: "NAME busy=... steal=... instances=... haproxy=... postgresql=...
# rest=...", each in cores (CPU seconds a second) between the two snapshots; rest is the busy
# cores not used by the three: wrk, the kernel's own work and anything else on the machine.
cpu_line() {
  awk -v name="$1" -v before="$2" -v after="$3" -v hz="$clock_ticks" 'BEGIN {
    split(before, b, " "); split(after, a, " ")
    seconds = (a[1] - b[1]) / 1e9
    for (i = 2; i <= 6; i++) c[i] = (a[i] - b[i]) / hz / seconds
    printf "%s busy=%.3f steal=%.3f instances=%.3f haproxy=%.3f postgresql=%.3f rest=%.3f\n",
      name, c[2], c[3], c[4], c[5], c[6], c[2] - c[4] - c[5] - c[6]
  }'
}

# make_certificate NAME: tls-NAME-cert.pem and tls-NAME-key.pem, a self-signed ECDSA P-256
# certificate for 127.0.0.1 (the key type of the instances' development certificates) with a
# subject of its own.
make_certificate() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/tls-$1-key.pem" \
    -out "$work/tls-$1-cert.pem" -days 2 -subj "/O=codepayload bench/CN=$1" -addext subjectAltName=IP:127.0.0.1 \
    2>>"$work/openssl.log" || die "openssl could not make the certificate of $1 (see $work/openssl.log)"
}

# field_of FILE NAME FIELD: the value of FIELD=VALUE on the line of FILE that starts with NAME.
field_of() {
  awk -v name="$2" -v field="$3" '$1 == name { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == field) print kv[2] } }' "$1"
}

# run_order RUN: the targets in the order of run RUN, one a line: reversed on even runs.
run_order() {
  if [ $(($1 % 2)) -eq 1 ]; then printf '%s\n' "${targets[@]}"; else printf '%s\n' "${targets[@]}" | tac; fi
}

# access_log_429s FILE...: the answers with status 429 in the access logs FILE.
access_log_429s() { cat "$@" 2>/dev/null | grep -c '"status":429' || true; }

# measure ENDPOINT TARGET RUN: one wrk run of ENDPOINT (token or codes) against TARGET, its
# CPU use beside it; fails on any answer that is not 2xx.
measure() {
  local endpoint=$1 target=$2 run=$3 name=$1-$2-$3 script vars before after non2xx
  echo "   run $run: $endpoint against $target"
  case $endpoint in
    token)
      script=token.lua
      registry=pg
      [ "$target" = sqlite ] && registry=sqlite
      take_client_set "$registry"
      vars=(BENCH_CLIENTS_FILE="$client_set")
      ;;
    codes) script=codes_single.lua; vars=(BENCH_TOKEN="${target_token[$target]}") ;;
  esac
  before=$(cpu_snapshot)
  run_wrk "$name" "${target_url[$target]}" "$script" "$duration" "$threads" "$connections" "${vars[@]}"
  after=$(cpu_snapshot)
  cpu_line "$name" "$before" "$after" >>"$work/cpu.txt"
  [ "$endpoint" = token ] && set_free_at[$client_set]=$(($(date +%s) + 62))
  non2xx=$(field_of "$work/runs.txt" "$name" non2xx)
  if [ "$non2xx" != 0 ]; then
    die "$name: $non2xx answers were not 2xx; the instances' access logs hold $(access_log_429s "$work"/access-*.log)" \
      "429s so far (each client may mint 600 tokens a minute on each instance: $token_clients clients allow" \
      "$((token_clients * 600 / duration)) tokens/s to an instance over a ${duration} s run; raise BENCH_TOKEN_CLIENTS)"
  fi
}

# Token client sets, clients-REGISTRY-K.txt. An instance caps each client at 600 tokens in a
# window that opens with the client's first token and lasts 60 s, so a set serves another token
# run once 62 s have passed since its last run ended (set_free_at, in epoch seconds). A token
# run takes the set of its registry that is free first, waiting for it up to 15 s, or else has a
# new one made.
declare -A sets_of set_free_at
client_sets_made=0
clients_seconds=0

# make_client_set REGISTRY: a new set of $token_clients clients of REGISTRY's organization.
# codepayload-admin makes one client per process and mostly waits for the registry: one
# process per core at a time.
make_client_set() {
  local registry=$1 parts part count started jobs=() job pids_before=${#pids[@]} file
  started=$(date +%s)
  sets_of[$registry]=$((${sets_of[$registry]:-0} + 1))
  file=$work/clients-$registry-${sets_of[$registry]}.txt
  parts=$cpu_count
  [ "$parts" -le "$token_clients" ] || parts=$token_clients
  for part in $(seq "$parts"); do
    count=$((token_clients / parts))
    [ "$part" -gt $((token_clients % parts)) ] || count=$((count + 1))
    on_registry "$registry" create_client_lines "$work/making-$part.txt" "$count" "${org[$registry]}" &
    jobs+=("$!")
    pids+=("$!")
  done
  for job in "${jobs[@]}"; do
    wait "$job" || die "codepayload-admin could not make the clients (see $work/admin.log)"
  done
  pids=("${pids[@]:0:$pids_before}")
  for part in $(seq "$parts"); do cat "$work/making-$part.txt"; done >"$file"
  rm -f "$work"/making-*.txt
  set_free_at[$file]=0
  client_sets_made=$((client_sets_made + 1))
  clients_seconds=$((clients_seconds + $(date +%s) - started))
}

# take_client_set REGISTRY: sets client_set to a set of REGISTRY free for a run that starts now.
take_client_set() {
  local registry=$1 index file best="" wait_seconds
  for index in $(seq "${sets_of[$registry]:-0}"); do
    file=$work/clients-$registry-$index.txt
    if [ -z "$best" ] || [ "${set_free_at[$file]}" -lt "${set_free_at[$best]}" ]; then best=$file; fi
  done
  wait_seconds=-1
  [ -z "$best" ] || wait_seconds=$((set_free_at[$best] - $(date +%s)))
  if [ -n "$best" ] && [ "$wait_seconds" -le 15 ]; then
    if [ "$wait_seconds" -gt 0 ]; then
      echo "   waiting $wait_seconds s until the clients of $(basename "$best") may mint tokens again"
      sleep "$wait_seconds"
    fi
    client_set=$best
  else
    echo "   $token_clients more clients for $registry (every set was used less than a minute ago)"
    make_client_set "$registry"
    client_set=$work/clients-$registry-${sets_of[$registry]}.txt
    sleep 1 # the instances' registry views are checked every 250 ms
  fi
}

# --- PostgreSQL -------------------------------------------------------------

started_at=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
started_seconds=$(date +%s)
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
clock_ticks=$(getconf CLK_TCK)
cpu_count=$(nproc)
: >"$work/runs.txt"
: >"$work/cpu.txt"

echo "== PostgreSQL 15: a scratch cluster in $pg_dir"
superuser_password=$(openssl rand -hex 16)
printf '%s\n' "$superuser_password" >"$pg_dir/pw"
[ "$as_root" = 0 ] || chown postgres: "$pg_dir/pw"
as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -A scram-sha-256 --pwfile="$pg_dir/pw" -U postgres -E UTF8 \
  --no-locale --no-sync >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log" >&2; die "initdb failed"; }
# fsync off, as in the tests: the cluster is thrown away (and the registry is written only by
# the instances' usage flushes, every 10 s).
for attempt in 1 2 3; do
  pg_port=$(free_port)
  if as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" \
    -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off" \
    -l "$pg_dir/log" -w -t 60 start >>"$work/pg_ctl.log" 2>&1; then
    pg_started=1
    break
  fi
  [ "$attempt" -lt 3 ] || { cat "$pg_dir/log" >&2; die "PostgreSQL did not start (see $work/pg_ctl.log)"; }
done
db_password=$(openssl rand -hex 16)
# Through standard input, so that the role's password is never on a command line; CREATE
# DATABASE cannot run inside a transaction, so it goes on its own.
PGPASSWORD=$superuser_password "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres \
  -d postgres >>"$work/psql.log" 2>&1 <<<"CREATE ROLE codepayload LOGIN PASSWORD '$db_password';" ||
  die "psql: CREATE ROLE failed (see $work/psql.log)"
PGPASSWORD=$superuser_password "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres \
  -d postgres -c "CREATE DATABASE codepayload OWNER codepayload" >>"$work/psql.log" 2>&1 ||
  die "psql: CREATE DATABASE failed (see $work/psql.log)"
head -c 32 /dev/urandom >"$work/key-encryption-key"
chmod 600 "$work/key-encryption-key"
# The settings every PostgreSQL instance and codepayload-admin share.
pg_settings=(CODEPAYLOAD_REGISTRY_URL="postgresql://codepayload:$db_password@127.0.0.1:$pg_port/codepayload"
  CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE="$work/key-encryption-key")
proxy_settings=(CODEPAYLOAD_TRUSTED_PROXIES=127.0.0.1/32)

# --- the instances ----------------------------------------------------------

declare -A target_url target_token
instance_pids=()
proxy_pids=()
echo "== codepayload-server on SQLite (first start: imports the shipped baseline)"
mkdir -p "$work/sqlite/data"
start_server "$work/sqlite/data" "$work/server-sqlite.log" "$work/access-sqlite.log" "${proxy_settings[@]}"
instance_pids+=("$server_pid")
target_url[sqlite]=https://127.0.0.1:$server_port
# The first PostgreSQL instance migrates the new database; the others then find it ready.
declare -a pg_port_of
for index in 1 2 3; do
  echo "== codepayload-server $index on PostgreSQL"
  mkdir -p "$work/pg-$index/data"
  start_server "$work/pg-$index/data" "$work/server-pg-$index.log" "$work/access-pg-$index.log" \
    "${pg_settings[@]}" "${proxy_settings[@]}"
  instance_pids+=("$server_pid")
  pg_port_of[index]=$server_port
done
target_url[pg]=https://127.0.0.1:${pg_port_of[1]}

echo "== organizations, API clients and tokens"
# on_registry REGISTRY COMMAND...: COMMAND (a program or a function) with codepayload-admin's
# settings for REGISTRY: sqlite, the SQLite instance's data dir; pg, the shared PostgreSQL
# settings and a data dir of its own.
# shellcheck disable=SC2030,SC2031 # the settings are meant for COMMAND alone
on_registry() {
  local registry=$1
  shift
  if [ "$registry" = sqlite ]; then
    (export CODEPAYLOAD_DATA_DIR="$work/sqlite/data" && "$@")
  else
    (export CODEPAYLOAD_DATA_DIR="$work/admin-data" "${pg_settings[@]}" && "$@")
  fi
}
mkdir -p "$work/admin-data"
declare -A org
for registry in sqlite pg; do
  on_registry "$registry" "$admin" org create --name bench --plan starter >"$work/org.json" 2>>"$work/admin.log"
  org[$registry]=$(json_field "$work/org.json" id)
  [ -n "${org[$registry]}" ] || die "codepayload-admin org create printed no id on $registry: $(cat "$work/org.json")"
  on_registry "$registry" "$admin" client create --org "${org[$registry]}" --scope write:codes \
    >"$work/client-$registry.json" 2>>"$work/admin.log"
done
sleep 1 # an instance's registry view is checked every 250 ms
for registry in sqlite pg; do
  # The secret through a file: a command line is visible to every user.
  echo "Authorization: $(basic_authorization "$work/client-$registry.json")" >"$work/authorization.txt"
  answer=$(curl -sk -o "$work/token.json" -w '%{http_code}' -H "@$work/authorization.txt" \
    -d grant_type=client_credentials "${target_url[$registry]}/oauth/token")
  [ "$answer" = 200 ] || die "/oauth/token of $registry answered $answer: $(cat "$work/token.json")"
  target_token[$registry]=$(json_field "$work/token.json" access_token)
  [ -n "${target_token[$registry]}" ] || die "no access_token in the token response of $registry"
done
for proxy in 1 2 3; do target_token[proxy$proxy]=${target_token[pg]}; done

targets=(sqlite pg proxy1 proxy2 proxy3)
echo "   the first run's token clients: a set of $token_clients for sqlite, 4 for the PostgreSQL targets"
make_client_set sqlite
for _ in 1 2 3 4; do make_client_set pg; done

# --- HAProxy ----------------------------------------------------------------

# awk, not head: it reads to the end, so no writer gets SIGPIPE (a failure under pipefail).
haproxy_version=$("$haproxy" -v | awk 'NR == 1 { print $1, $2, $3 }')
echo "== $haproxy_version with deploy/haproxy/codepayload.cfg: 1, 2 and 3 instances"
make_certificate haproxy
cat "$work/tls-haproxy-cert.pem" "$work/tls-haproxy-key.pem" >"$work/tls-haproxy-bundle.pem"
cat "$work"/pg-{1,2,3}/data/dev-tls-cert.pem >"$work/instances-ca.pem"

# start_proxy N: HAProxy in the foreground (-db: its warnings on its log) in front of the
# first N PostgreSQL instances. The configuration has three instance slots; those beyond N
# point at a port nobody listens on, and the runs wait until HAProxy's health check has taken
# each of them out of both backends.
start_proxy() {
  local count=$1 log=$work/haproxy-$1.log attempt port slot pid unused answer='' waited
  for attempt in 1 2 3; do
    port=$(free_port)
    local environment=(CODEPAYLOAD_HAPROXY_BIND="127.0.0.1:$port" CODEPAYLOAD_HAPROXY_CERT="$work/tls-haproxy-bundle.pem"
      CODEPAYLOAD_INSTANCE_CA="$work/instances-ca.pem")
    unused=()
    for slot in 1 2 3; do
      if [ "$slot" -le "$count" ]; then
        environment+=("CODEPAYLOAD_INSTANCE_$slot=127.0.0.1:${pg_port_of[slot]}")
      else
        environment+=("CODEPAYLOAD_INSTANCE_$slot=127.0.0.1:$(free_port)")
        unused+=("$slot")
      fi
    done
    env "${environment[@]}" "$haproxy" -db -f "$haproxy_cfg" >"$log" 2>&1 &
    pid=$!
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ $waited -lt 150 ]; do
      answer=$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/healthz/ready" || true)
      [ "$answer" = 200 ] && break
      sleep 0.1
      waited=$((waited + 1))
    done
    if [ "$answer" = 200 ]; then break; fi
    stop_process "$pid"
    # A port another process took meanwhile: another one.
    grep -q 'cannot bind socket' "$log" && [ "$attempt" -lt 3 ] && continue
    cat "$log" >&2
    die "HAProxy in front of $count instances did not answer within 15 s"
  done
  pids+=("$pid")
  proxy_pids+=("$pid")
  for slot in "${unused[@]}"; do
    for backend in codes service; do
      waited=0
      until grep -q "Server $backend/instance$slot is DOWN" "$log"; do
        [ $waited -lt 100 ] || die "HAProxy did not take the unused slot $backend/instance$slot out within 10 s"
        sleep 0.1
        waited=$((waited + 1))
      done
    done
  done
  target_url[proxy$count]=https://127.0.0.1:$port
}
for count in 1 2 3; do start_proxy "$count"; done

# --- checks and warm-up -----------------------------------------------------

echo "== every target: one token and a checked one-item /codes answer, then a ${threads}-thread warm-up"
run_wrk body "${target_url[sqlite]}" codes_single.lua 1 1 1 BENCH_TOKEN="${target_token[sqlite]}" \
  BENCH_BODY_FILE="$work/single.json"
declare -A single_response_bytes
for target in "${targets[@]}"; do
  registry=pg
  [ "$target" = sqlite ] && registry=sqlite
  echo "Authorization: $(basic_authorization "$work/client-$registry.json")" >"$work/authorization.txt"
  answer=$(curl -sk -o "$work/token.json" -w '%{http_code}' -H "@$work/authorization.txt" \
    -d grant_type=client_credentials "${target_url[$target]}/oauth/token")
  [ "$answer" = 200 ] || die "/oauth/token through $target answered $answer: $(cat "$work/token.json")"
  single_response_bytes[$target]=$(check_codes "${target_url[$target]}" "${target_token[$target]}" "$work/single.json" 1)
  run_wrk "warmup-$target" "${target_url[$target]}" codes_single.lua 1 "$threads" "$connections" \
    BENCH_TOKEN="${target_token[$target]}"
done
# Through HAProxy every instance behind it answers: its access log has the warm-up's requests.
for index in 2 3; do
  grep -q '"path":"/codes"' "$work/access-pg-$index.log" || die "instance $index answered no /codes through HAProxy"
done
single_request_bytes=$(stat -c %s "$work/single.json")

# --- the runs ---------------------------------------------------------------

echo "== $runs runs of ${duration} s per endpoint and target, targets alternating"
for run in $(seq "$runs"); do
  mapfile -t order < <(run_order "$run")
  for endpoint in token codes; do
    for target in "${order[@]}"; do measure "$endpoint" "$target" "$run"; done
  done
done
load_at_end=$(cut -d' ' -f1-3 /proc/loadavg)
tokens_429=$(access_log_429s "$work"/access-*.log)

stop_started_processes
pids=()
finished_at=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
elapsed_seconds=$(($(date +%s) - started_seconds))

# --- figures ----------------------------------------------------------------

# cpu_values NAME FIELD: one value per run of the CPU field FIELD (busy, instances, ...) of the
# wrk runs "NAME-RUN".
cpu_values() {
  local run
  for run in $(seq "$runs"); do field_of "$work/cpu.txt" "$1-$run" "$2"; done
}

# value[ENDPOINT-TARGET-FIGURE]: the runs' values, in run order.
declare -A value
cpu_groups=(busy steal instances haproxy postgresql rest)
for endpoint in token codes; do
  for target in "${targets[@]}"; do
    key=$endpoint-$target
    value[$key-rate]=$(run_values "$key" 'ok / seconds' | tr '\n' ' ')
    value[$key-p50]=$(run_values "$key" 'f["p50_us"] / 1000' | tr '\n' ' ')
    value[$key-p99]=$(run_values "$key" 'f["p99_us"] / 1000' | tr '\n' ' ')
    value[$key-errors]=$(run_values "$key" 'f["connect_errors"] + f["read_errors"] + f["write_errors"] + f["timeouts"]' |
      tr '\n' ' ')
    for group in "${cpu_groups[@]}"; do value[$key-$group]=$(cpu_values "$key" "$group" | tr '\n' ' '); done
  done
done

# ratio ENDPOINT TARGET BASELINE: the median over the runs of TARGET's requests/s over
# BASELINE's, run by run.
ratio() { median_ratio "$1-$2-rate" "$1-$3-rate"; }
cores() { fixed "$(m "$1")" 2; }

baseline_of() { case $1 in sqlite) echo "" ;; pg) echo sqlite ;; *) echo pg ;; esac; }
describe() {
  case $1 in
    sqlite) echo "SQLite registry, direct | 1" ;;
    pg) echo "PostgreSQL registry, direct | 1" ;;
    proxy*) echo "PostgreSQL registry, through HAProxy | ${1#proxy}" ;;
  esac
}

# endpoint_rows ENDPOINT: the table rows of ENDPOINT, one per target.
endpoint_rows() {
  local endpoint=$1 target baseline ratio_text
  for target in "${targets[@]}"; do
    baseline=$(baseline_of "$target")
    if [ -z "$baseline" ]; then
      ratio_text="1 (baseline)"
    else
      ratio_text="$(fixed "$(ratio "$endpoint" "$target" "$baseline")" 2) x $baseline"
    fi
    printf '| %s | %s | %s | %s | %s | %s / %s / %s / %s of %s |\n' "$target" "$(describe "$target")" \
      "$(fmt "$(m "$endpoint-$target-rate")")" "$(fixed "$(m "$endpoint-$target-p99")" 2) ms" "$ratio_text" \
      "$(cores "$endpoint-$target-instances")" "$(cores "$endpoint-$target-haproxy")" \
      "$(cores "$endpoint-$target-postgresql")" "$(cores "$endpoint-$target-rest")" "$(cores "$endpoint-$target-busy")"
  done
}

# run_rows ENDPOINT: one row per run, requests/s and p99 of each target.
run_rows() {
  local endpoint=$1 run target cells rates p99s errors
  for run in $(seq "$runs"); do
    cells=""
    for target in "${targets[@]}"; do
      read -ra rates <<<"${value[$endpoint-$target-rate]}"
      read -ra p99s <<<"${value[$endpoint-$target-p99]}"
      read -ra errors <<<"${value[$endpoint-$target-errors]}"
      cells+=" $(fmt "${rates[$((run - 1))]}") / $(fixed "${p99s[$((run - 1))]}" 2) ms"
      [ "$(fixed "${errors[$((run - 1))]}" 0)" = 0 ] || cells+=" ($(fixed "${errors[$((run - 1))]}" 0) socket errors)"
      cells+=" |"
    done
    echo "| $run ($(run_order "$run" | paste -sd, | sed 's/,/, /g')) |$cells"
  done
}

socket_errors=0
for key in "${!value[@]}"; do
  [[ $key == *-errors ]] || continue
  read -ra counts <<<"${value[$key]}"
  for count in "${counts[@]}"; do socket_errors=$(calc "$socket_errors + $count"); done
done

token_pg_ratio=$(ratio token pg sqlite)
codes_pg_ratio=$(ratio codes pg sqlite)
token_pg_verdict=$(verdict "$token_pg_ratio >= 0.9")
codes_pg_verdict=$(verdict "$codes_pg_ratio >= 0.9")
declare -A proxy_ratio
for endpoint in token codes; do
  for count in 1 2 3; do proxy_ratio[$endpoint-$count]=$(fixed "$(ratio "$endpoint" "proxy$count" pg)" 2); done
done
# Medians over every run of every target.
all_runs() {
  local endpoint target
  for endpoint in token codes; do for target in "$@"; do echo "${value[$endpoint-$target-$group]}"; done; done |
    tr ' ' '\n' | grep -v '^$'
}
group=busy
mapfile -t busy_all < <(all_runs "${targets[@]}")
busy_median=$(fixed "$(median "${busy_all[@]}")" 2)
group=steal
mapfile -t steal_all < <(all_runs "${targets[@]}")
steal_median=$(fixed "$(median "${steal_all[@]}")" 2)
if [ "$token_pg_verdict" = pass ] && [ "$codes_pg_verdict" = pass ]; then
  target_sentence="the 0.9 x target is met on both paths"
elif [ "$token_pg_verdict" = pass ]; then
  target_sentence="the 0.9 x target is met for tokens and missed for /codes"
elif [ "$codes_pg_verdict" = pass ]; then
  target_sentence="the 0.9 x target is met for /codes and missed for tokens"
else
  target_sentence="the 0.9 x target is missed on both paths"
fi

# The token requests of the first 10 ms of each second against the rest, from the access logs
# of the SQLite instance and of the first PostgreSQL instance (which served every PostgreSQL
# target): the registry view vouches only for the second its last check began in (decision
# D-T6), so a request that arrives before the check made just after each second begins has come
# back reads the registry.
# second_split ACCESS_LOG: "EARLY_REQUESTS EARLY_MEAN_MS EARLY_MAX_MS LATE_REQUESTS LATE_MEAN_MS".
second_split() {
  grep -F '"path":"/oauth/token"' "$1" | grep -F '"status":200' | awk -F'"' '
    {
      split($4, stamp, "."); early = substr(stamp[2], 1, 3) + 0 < 10
      for (i = 5; i < NF; i++) if ($i == "durationUs") { us = $(i + 1); gsub(/[:,]/, "", us); us += 0; break }
      count[early]++; sum[early] += us; if (early && us > max) max = us
    }
    END {
      printf "%d %.2f %.1f %d %.3f\n", count[1], count[1] ? sum[1] / count[1] / 1000 : 0, max / 1000,
        count[0], count[0] ? sum[0] / count[0] / 1000 : 0
    }' || true
}
read -r sqlite_early sqlite_early_ms sqlite_early_max_ms sqlite_late sqlite_late_ms < <(second_split "$work/access-sqlite.log")
read -r pg_early pg_early_ms pg_early_max_ms pg_late pg_late_ms < <(second_split "$work/access-pg-1.log")
token_p99_sqlite=$(fixed "$(m token-sqlite-p99)" 2)
token_p99_pg=$(fixed "$(m token-pg-p99)" 2)
p99_sentence="On PostgreSQL the token p99 was $token_p99_pg ms against SQLite's $token_p99_sqlite ms; token requests that arrived in the
first 10 ms of a second took $pg_early_ms ms on average on PostgreSQL (at most $pg_early_max_ms ms) against
$sqlite_early_ms ms on SQLite, the rest of the second $pg_late_ms and $sqlite_late_ms ms (the access logs' server times)."
if awk "BEGIN { exit !($pg_early_ms > 5 * $pg_late_ms && $pg_early_ms > 5 * $sqlite_early_ms) }"; then
  p99_sentence+=" The registry view vouches only for the second its last check began in (docs/decisions.md, D-T6): until the
check made just after each second begins has come back, a token request reads the registry, a round trip to
PostgreSQL instead of a read of a local file."
fi

commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
tree_state="clean"
[ -n "$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null)" ] && tree_state="with uncommitted changes in the working tree"
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
memory_total=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
wrk_version=$({ wrk -v 2>&1 || true; } | awk 'NR == 1 { print $1, $2 }')
postgresql_version=$("$pg_bin/postgres" --version)
rel() { echo "${1#"$repo"/}"; }
load_note="(below 1: nothing else was running)"
awk "BEGIN { exit !(${load_at_start%% *} >= 1) }" && load_note="(1 or more: something else was running too)"
token_cap=$((token_clients * 600 / duration))

mkdir -p "$(dirname "$output")"
{
  cat <<MARKDOWN
# Scale benchmark: SQLite against PostgreSQL, HAProxy in front of 1 to 3 instances

Written by \`make bench-scale\` (\`bench/scale.sh $(rel "$build")\`) from one run: $started_at to $finished_at
($((elapsed_seconds / 60)) min $((elapsed_seconds % 60)) s, of which $clients_seconds s creating API clients).

- Machine: $cpu_count cores ($cpu_model), $memory_total, Linux $(uname -r). Load average $load_at_start at the start
  $load_note and $load_at_end after the runs. A shared machine: read the medians and the ratios, each against a baseline
  measured in the same run.
- Everything runs on these $cpu_count cores: wrk ($threads threads), the instances, HAProxy and PostgreSQL.
- Build: commit $commit ($tree_state), $build_type. $wrk_version, $haproxy_version, $postgresql_version.
- Settings: $runs runs of $duration s per endpoint and target, targets alternating (reversed on even runs);
  $connections connections; $workers workers per instance (\`http.maxThreads\`); $token_clients API clients per token run.

## What the figures mean

This machine has $cpu_count cores, busy in every run (median $busy_median of $cpu_count; $steal_median stolen by the
hypervisor): wrk, HAProxy, the instances and PostgreSQL share them, so a second and a third instance add no CPU, only
more processes on the same cores. The 2- and 3-instance rows show what spreading one machine's cores costs, not how
the service scales, which needs cores or machines of their own for each instance. Direct, the instance held
$(cores token-pg-instances) cores for tokens and $(cores codes-pg-instances) for /codes, wrk with the rest of the
machine $(cores token-pg-rest) and $(cores codes-pg-rest). HAProxy ends the clients' TLS and opens a second TLS
connection to the instance, so every request is parsed and encrypted twice: it took $(cores token-proxy1-haproxy)
cores (tokens) and $(cores codes-proxy1-haproxy) (/codes) of the same cores, and one instance behind it served
${proxy_ratio[token-1]} x the tokens and ${proxy_ratio[codes-1]} x the /codes requests it served directly (2 instances:
${proxy_ratio[token-2]} x and ${proxy_ratio[codes-2]} x; 3: ${proxy_ratio[token-3]} x and ${proxy_ratio[codes-3]} x).
Neither path reads the registry per request (tokens are answered from the registry view in memory, /codes checks its
token in memory): PostgreSQL held $(cores token-pg-postgresql) cores in the direct token runs, and the instance on it
served $(fixed "$token_pg_ratio" 2) x SQLite's tokens and $(fixed "$codes_pg_ratio" 2) x its /codes requests:
$target_sentence. $p99_sentence

## Targets

| figure | ratio (median of the per-run ratios) | target | verdict |
|---|---|---|---|
| POST /oauth/token: one PostgreSQL instance over one SQLite instance, direct | $(fixed "$token_pg_ratio" 2) x | >= 0.9 x | $token_pg_verdict |
| POST /codes, one item: the same | $(fixed "$codes_pg_ratio" 2) x | >= 0.9 x | $codes_pg_verdict |

## POST /oauth/token

| target | setup | instances | tokens/s (median) | p99 (median) | ratio (median of the per-run ratios) | CPU, cores: instances / HAProxy / PostgreSQL / rest of busy |
|---|---|---|---|---|---|---|
$(endpoint_rows token)

## POST /codes, one item

| target | setup | instances | requests/s (median) | p99 (median) | ratio (median of the per-run ratios) | CPU, cores: instances / HAProxy / PostgreSQL / rest of busy |
|---|---|---|---|---|---|---|
$(endpoint_rows codes)

Ratios: pg against sqlite, each proxy row against pg (one PostgreSQL instance, direct), run by run. The CPU columns
are CPU seconds a second over each wrk run (medians), from \`/proc\`: all four codepayload-server processes (the idle
ones too), the three HAProxy processes (the idle ones only check health), the PostgreSQL server with its backends, and
the rest of the busy cores (wrk, the kernel's work that no process is charged with, and anything else on the machine),
of all cores busy.

Token requests by when in the second they arrived (every token run; server time from the access logs):

| instance | first 10 ms of a second: requests, mean, max | the rest of the second: requests, mean |
|---|---|---|
| SQLite (sqlite) | $(fmt "$sqlite_early"), $sqlite_early_ms ms, $sqlite_early_max_ms ms | $(fmt "$sqlite_late"), $sqlite_late_ms ms |
| the first PostgreSQL instance (pg, proxy1, and a share of proxy2 and proxy3) | $(fmt "$pg_early"), $pg_early_ms ms, $pg_early_max_ms ms | $(fmt "$pg_late"), $pg_late_ms ms |

## Setups

- Instances: \`codepayload-server\` of this build with $workers workers (\`CODEPAYLOAD_THREADS\`), its access log to a
  file, no per-address connection limit (\`CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS=0\`: every connection comes from
  127.0.0.1), \`CODEPAYLOAD_TRUSTED_PROXIES=127.0.0.1/32\` (HAProxy's address, as docs/scaling.md deploys it), each
  with its own data dir and its generated development certificate (ECDSA P-256, a subject of its own; HAProxy
  verifies each instance against it). sqlite: the default registry in its data dir. pg
  and the instances behind HAProxy: \`CODEPAYLOAD_REGISTRY_URL=postgresql://codepayload:PASSWORD@127.0.0.1:PORT/codepayload\`
  and \`CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE\` (32 random bytes, mode 0600); three instances, started once, all running
  through every run; pg and proxy1 use the first.
- PostgreSQL: $postgresql_version, a scratch cluster (\`initdb -A scram-sha-256\`, \`fsync=off\` as in the tests: it
  is thrown away, and only the usage flushes write), on 127.0.0.1, one database owned by a role of its own.
- HAProxy: $haproxy_version with \`deploy/haproxy/codepayload.cfg\` as shipped (TLS ended with an ECDSA P-256
  certificate made for 127.0.0.1, TLS again to the instances, verified against their certificates); one HAProxy
  per row, all three running through every run. Its three instance slots: the ones a row does not use point at a
  loopback port nobody listens on, and the runs start once its health check has taken them out.
- Workloads: bench/run.sh's. Tokens: \`grant_type=client_credentials\` with HTTP Basic client authentication
  (\`bench/wrk/token.lua\`), cycling through a set of $token_clients clients: an instance caps each client at 600
  tokens in a minute that opens with its first token, so a set allows $(fmt "$token_cap") tokens/s to one instance
  over a $duration s run, and 2 or 3 times that behind HAProxy with 2 or 3 instances (each instance holds its own
  cap). A set serves again once 62 s have passed since its last run ended; $client_sets_made sets were made
  ($(fmt "$((client_sets_made * token_clients))") clients, in $clients_seconds s, $cpu_count \`codepayload-admin\` at a time).
  /codes: one Digital Link definition (\`bench/wrk/codes_single.lua\`, $single_request_bytes bytes, answered with
  ${single_response_bytes[pg]} bytes: one code, no failures, checked through every target before the runs), with a
  token of the target's registry. Every wrk run keeps its connections alive.
- Answers: every answer in every run was 2xx (the script fails a run with any other: a 429 there would be the clients'
  issuance cap; 429s in the instances' access logs: $tokens_429). Socket errors in all runs: $(fixed "$socket_errors" 0).

## Every run

POST /oauth/token, tokens/s / p99:

| run (order) | sqlite | pg | proxy1 | proxy2 | proxy3 |
|---|---|---|---|---|---|
$(run_rows token)

POST /codes, one item, requests/s / p99:

| run (order) | sqlite | pg | proxy1 | proxy2 | proxy3 |
|---|---|---|---|---|---|
$(run_rows codes)

## Commands

\`\`\`sh
make bench-scale    # = scripts/install-deps.sh (the test packages, with libbenchmark-dev wrk valgrind), then:
cmake -S . -B $(rel "$build") -G Ninja -DCMAKE_BUILD_TYPE=Release -DCODEPAYLOAD_BENCH=ON -DCODEPAYLOAD_TESTS=OFF
cmake --build $(rel "$build") --target codepayload-server codepayload-admin
BENCH_RUNS=$runs BENCH_DURATION=$duration BENCH_THREADS=$threads BENCH_CONNECTIONS=$connections BENCH_WORKERS=$workers \\
  BENCH_TOKEN_CLIENTS=$token_clients bench/scale.sh $(rel "$build")
\`\`\`

What bench/scale.sh ran (PG is the scratch cluster's folder, DATA_* the data dirs, PORT_* ports):

\`\`\`sh
runuser -u postgres -- initdb -D PG/data -A scram-sha-256 --pwfile=PG/pw -U postgres -E UTF8 --no-locale --no-sync
runuser -u postgres -- pg_ctl -D PG/data -o "-p PORT_PG -k PG -c listen_addresses=127.0.0.1 -c fsync=off" -l PG/log -w start
psql -h 127.0.0.1 -p PORT_PG -U postgres -d postgres <<<"CREATE ROLE codepayload LOGIN PASSWORD '...';"
psql -h 127.0.0.1 -p PORT_PG -U postgres -d postgres -c "CREATE DATABASE codepayload OWNER codepayload"
# for HAProxy (its CERT_AND_KEY is this certificate and key in one file):
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout KEY -out CERT -days 2 \\
  -subj "/O=codepayload bench/CN=NAME" -addext subjectAltName=IP:127.0.0.1
CODEPAYLOAD_DATA_DIR=DATA_SQLITE CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_ACCESS_LOG=FILE CODEPAYLOAD_SHUTDOWN_GRACE=2 \\
  CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS=0 CODEPAYLOAD_THREADS=$workers CODEPAYLOAD_TRUSTED_PROXIES=127.0.0.1/32 \\
  $(rel "$server")
# three times, DATA_PG_1..3:
CODEPAYLOAD_DATA_DIR=DATA_PG_N (the same settings) CODEPAYLOAD_REGISTRY_URL=postgresql://codepayload:PASSWORD@127.0.0.1:PORT_PG/codepayload \\
  CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE=KEY_FILE $(rel "$server")
# each registry (PostgreSQL: the URL, the key file and a data dir of its own):
$(rel "$admin") org create --name bench --plan starter
$(rel "$admin") client create --org ORG --scope write:codes   # 1, and $token_clients for each set of clients
# N = 1, 2, 3 (the slots over N: 127.0.0.1:UNUSED_PORT):
CODEPAYLOAD_HAPROXY_BIND=127.0.0.1:PORT_N CODEPAYLOAD_HAPROXY_CERT=CERT_AND_KEY CODEPAYLOAD_INSTANCE_CA=THE_3_DEV_CERTS \\
  CODEPAYLOAD_INSTANCE_1=127.0.0.1:PORT_1 CODEPAYLOAD_INSTANCE_2=127.0.0.1:PORT_2 CODEPAYLOAD_INSTANCE_3=127.0.0.1:PORT_3 \\
  $haproxy -db -f deploy/haproxy/codepayload.cfg
# $runs times, against each target in turn:
BENCH_CLIENTS_FILE=CLIENTS_OF_THE_TARGET_AND_RUN wrk -t $threads -c $connections -d ${duration}s --timeout 10s --latency -s bench/wrk/token.lua https://127.0.0.1:PORT
BENCH_TOKEN=\$TOKEN wrk -t $threads -c $connections -d ${duration}s --timeout 10s --latency -s bench/wrk/codes_single.lua https://127.0.0.1:PORT
\`\`\`
MARKDOWN
} >"$output.tmp"
mv "$output.tmp" "$output"
echo "== wrote $(rel "$output")"
