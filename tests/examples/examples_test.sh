#!/usr/bin/env bash
# The clients in examples/ against a real codepayload-server on a scratch data directory:
#  1. each example's command line on examples/batch.json: its exact stdout and stderr;
#  2. each client class, driven by client_driver.{py,mjs}: the token kept while more than 30 s of
#     its lifetime are left and renewed after (a clock the driver moves), a 401 after the client
#     was blocked and unblocked (its tokens revoked) answered by one new token and one retry, a
#     429 (another large request of the same client holds the only slot) answered by one retry
#     after Retry-After, surfaced when the retry gets 429 too; the transcript is compared exactly
#     with paths.expected.
# usage: examples_test.sh SERVER_EXECUTABLE ADMIN_EXECUTABLE SOURCE_DIR
set -euo pipefail
server=$1 admin=$2 source=$3
examples=$source/examples here=$source/tests/examples
for tool in python3 node curl; do
  command -v "$tool" >/dev/null || { echo "examples_test: $tool is not installed (scripts/install-deps.sh)"; exit 1; }
done

scratch=$(mktemp -d)
server_pid='' holder_pid=''
cleanup() {
  [ -n "$holder_pid" ] && kill "$holder_pid" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT
cd "$scratch"
failed=0
fail() { echo "FAILED: $*"; failed=1; }

# One large request (over 1 KiB) in flight per client: the driver's second one gets 429.
while IFS='=' read -r name _; do unset "$name"; done < <(env | grep '^CODEPAYLOAD_')
export CODEPAYLOAD_DATA_DIR=$scratch/data CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_ACCESS_LOG=off \
       CODEPAYLOAD_LARGE_BODY_BYTES=1024 CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_CLIENT=1 CODEPAYLOAD_IO_TIMEOUT=10
"$server" >server.out 2>server.err &
server_pid=$!
for _ in $(seq 200); do [ -s data/server.port ] && break; sleep 0.05; done
[ -s data/server.port ] || { cat server.err; echo "FAILED: the server wrote no port file"; exit 1; }
# 127.0.0.1, not localhost: a bare debootstrap root has no /etc/hosts (the certificate names both).
url=https://127.0.0.1:$(cat data/server.port) ca=$scratch/data/dev-tls-cert.pem

json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
org=$("$admin" org create --name Examples --plan starter | json_field id)
"$admin" client create --org "$org" --name examples --scope write:codes >client.json
client_id=$(json_field clientId <client.json)
CLIENT_SECRET=$(json_field clientSecret <client.json)
export CLIENT_SECRET

# 1. The command lines.
expected_stderr='token: new, expires in 3600 s, renewed 30 s before'
for example in "python3 $examples/python/client.py" "node $examples/javascript/client.mjs"; do
  status=0
  $example --url "$url" --ca "$ca" --client-id "$client_id" "$examples/batch.json" >out.txt 2>err.txt || status=$?
  [ "$status" = 0 ] || fail "$example exited $status"
  diff -u "$here/batch.expected" out.txt || fail "$example: stdout differs"
  [ "$(cat err.txt)" = "$expected_stderr" ] || fail "$example: stderr is $(cat err.txt)"
done

# 2. Renewal, 401 and 429 through the client classes.
token() { curl -sS --cacert "$ca" -u "$client_id:$CLIENT_SECRET" -d grant_type=client_credentials \
               "$url/oauth/token" | json_field access_token; }
codes_status() {  # TOKEN BATCH_FILE: the status of POST /codes
  curl -sS -o /dev/null -w '%{http_code}' --cacert "$ca" -H "Authorization: Bearer $1" \
       -H 'Content-Type: application/json' --data-binary "@$2" "$url/codes"
}
wait_for_status() {  # STATUS TOKEN BATCH_FILE: until POST /codes answers STATUS (at most 10 s)
  for _ in $(seq 100); do [ "$(codes_status "$2" "$3")" = "$1" ] && return 0; sleep 0.1; done
  fail "POST /codes never answered $1"
}
hold_large_slot() {  # a chunked POST /codes whose body does not come: it holds the client's one slot
  local attempt
  for attempt in $(seq 20); do
    rm -f hold.fifo && mkfifo hold.fifo
    curl -sS -o /dev/null --cacert "$ca" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
         -X POST -T - "$url/codes" <hold.fifo &
    holder_pid=$!
    exec 7>hold.fifo
    # Held once another large request of the client gets 429. A probe that reached the server
    # first took the slot itself, and the holder got the 429 and ended: then hold it again.
    for _ in $(seq 50); do
      [ "$(codes_status "$1" "$here/large_batch.json")" = 429 ] && return 0
      kill -0 "$holder_pid" 2>/dev/null || break
      sleep 0.1
    done
    release_large_slot
  done
  fail "POST /codes never answered 429 ($attempt holders)"
}
release_large_slot() { exec 7>&-; wait "$holder_pid" || true; holder_pid=''; }

run_driver() {  # the scenario with one driver; its transcript on stdout
  coproc DRIVER { "$@" "$examples" "$url" "$ca" "$client_id"; }
  send() {  # COMMAND: sends it, copies the driver's lines up to "."
    echo "$1" >&"${DRIVER[1]}"
    [ -z "${2:-}" ] || { sleep "$2"; release_large_slot; }
    while IFS= read -r line <&"${DRIVER[0]}"; do echo "$line"; [ "$line" = . ] && return 0; done
    echo "(the driver ended)"; return 1
  }
  echo '# a first batch: a new token'
  send "post $examples/batch.json"
  echo '# 31 s of the token left: it is kept'
  send 'advance 3569'
  send "post $examples/batch.json"
  echo '# 29 s left: renewed before the batch'
  send 'advance 2'
  send "post $examples/batch.json"
  echo '# the client blocked and unblocked: its tokens are revoked, one 401, a new token, one retry'
  local before after
  before=$(token)
  # (the admin's stderr, the line naming its registry, stays out of the transcript)
  "$admin" client block "$client_id" >/dev/null 2>>admin.err || fail "client block: $(cat admin.err)"
  "$admin" client unblock "$client_id" >/dev/null 2>>admin.err || fail "client unblock: $(cat admin.err)"
  wait_for_status 401 "$before" "$examples/batch.json"
  after=$(token)
  wait_for_status 200 "$after" "$examples/batch.json"
  send "post $examples/batch.json"
  echo "# the client's one large-request slot taken: 429, one retry after 1 s, 429 again: surfaced"
  hold_large_slot "$after"
  send "post $here/large_batch.json"
  release_large_slot
  echo '# the slot freed while the client waits: the retry goes through'
  hold_large_slot "$after"
  send "post $here/large_batch.json" 0.4
  eval "exec ${DRIVER[1]}>&-"
  wait "$DRIVER_PID"
}

for driver in "python3 $here/client_driver.py" "node $here/client_driver.mjs"; do
  # shellcheck disable=SC2086
  run_driver $driver >transcript.txt 2>&1 || fail "$driver exited non-zero"
  diff -u "$here/paths.expected" transcript.txt || fail "$driver: transcript differs"
done

[ "$failed" = 0 ] && echo "examples_test: passed" && exit 0
echo "examples_test: failed"
exit 1
