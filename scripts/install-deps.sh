#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs to build, test and run.
# Idempotent: does nothing when everything is already installed.
# Also the browser tests' npm package (tests/dashboard: playwright-core, pinned, with npm ci); they
# drive Debian's chromium-headless-shell, never a browser downloaded by npm.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates openssl libsystemd-dev
  libpoco-dev liblua5.4-dev libsqlite3-dev libssl-dev libgtest-dev libgmock-dev libsimdjson-dev
  libargon2-dev
  sqlite3 curl python3 python3-jsonschema nodejs systemd prometheus chromium-headless-shell
)
# npm for the browser tests' packages: Debian's, unless the installed nodejs brings its own (a
# nodejs from elsewhere conflicts with Debian's npm package).
command -v npm >/dev/null || packages+=(npm)
if [ "${CODEPAYLOAD_BENCH_DEPS:-0}" = 1 ]; then packages+=(libbenchmark-dev wrk valgrind); fi
if [ "${CODEPAYLOAD_FUZZ_DEPS:-0}" = 1 ]; then packages+=(clang libclang-rt-dev); fi
if [ "${CODEPAYLOAD_PACKAGE_DEPS:-0}" = 1 ]; then packages+=(help2man lintian debootstrap); fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The dashboard's browser tests (tests/dashboard): playwright-core and the Node 20 runtime it needs
# (Debian 12's nodejs is 18), both pinned in package-lock.json; npm ci again whenever the lock
# file changed since the last install.
dashboard_tests=$(cd "$(dirname "$0")/.." && pwd)/tests/dashboard
lock_digest=$(sha256sum "$dashboard_tests/package-lock.json" | cut -d' ' -f1)
stamp=$dashboard_tests/node_modules/.installed-lock-sha256
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_digest" ]; then
  echo "install-deps: npm ci in $dashboard_tests"
  (cd "$dashboard_tests" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_digest" >"$stamp"
fi
