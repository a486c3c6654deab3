#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs: the one list of them.
# Idempotent: does nothing when everything is already installed.
#
# usage: scripts/install-deps.sh [run | test]
#   run    building and running the binaries (scripts/run.sh, make run): the compiler, make,
#          cmake, ninja and the -dev packages of CMakeLists.txt's find_package,
#          pkg_check_modules and find_library (their runtime libraries come with them)
#   test   (the default) those, and what the tests need: GoogleTest, the tools the tests drive
#          (curl, sqlite3, python3, systemd-analyze, Prometheus's promtool, a scratch PostgreSQL 15
#          server for the registry's PostgreSQL tests, HAProxy for the scale tests, ...), Debian's
#          chromium-headless-shell, and the tests' npm packages (tests/dashboard: playwright-core
#          and axe-core for the browser tests, bwip-js for tests/verify, pinned, with npm ci; never
#          a browser downloaded by npm)
# More, by environment: CODEPAYLOAD_BENCH_DEPS=1, CODEPAYLOAD_FUZZ_DEPS=1, CODEPAYLOAD_PACKAGE_DEPS=1.
# `scripts/install-deps.sh --list run|test` prints the packages of a mode, one a line, and installs nothing.
set -euo pipefail

run_packages=(
  build-essential cmake ninja-build pkg-config
  libpoco-dev liblua5.4-dev libsqlite3-dev libssl-dev libsimdjson-dev libargon2-dev libsystemd-dev libpq-dev
  libzint-dev
)
test_packages=(
  libgtest-dev libgmock-dev
  git ca-certificates openssl sqlite3 curl python3 python3-jsonschema systemd prometheus
  nodejs chromium-headless-shell
  postgresql-15 haproxy
  zxing-cpp-tools dmtx-utils
)

list_only=0
if [ "${1:-}" = --list ]; then list_only=1; shift; fi
mode=${1:-test}
case "$mode" in
  run) packages=("${run_packages[@]}") ;;
  test)
    packages=("${run_packages[@]}" "${test_packages[@]}")
    # npm for the tests' npm packages: Debian's, unless the installed nodejs brings its own (a
    # nodejs from elsewhere conflicts with Debian's npm package).
    command -v npm >/dev/null || packages+=(npm) ;;
  *) echo "usage: $0 [--list] [run | test]" >&2; exit 2 ;;
esac
if [ "${CODEPAYLOAD_BENCH_DEPS:-0}" = 1 ]; then packages+=(libbenchmark-dev wrk valgrind); fi
if [ "${CODEPAYLOAD_FUZZ_DEPS:-0}" = 1 ]; then packages+=(clang libclang-rt-dev); fi
if [ "${CODEPAYLOAD_PACKAGE_DEPS:-0}" = 1 ]; then packages+=(help2man lintian debootstrap); fi

if [ "$list_only" = 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

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

[ "$mode" = test ] || exit 0
# The tests' npm packages, in tests/dashboard: the browser tests' playwright-core, the Node 20
# runtime it needs (Debian 12's nodejs is 18) and axe-core, and tests/verify's second renderer,
# bwip-js, all pinned in package-lock.json; npm ci again whenever the lock file changed since the
# last install.
dashboard_tests=$(cd "$(dirname "$0")/.." && pwd)/tests/dashboard
lock_digest=$(sha256sum "$dashboard_tests/package-lock.json" | cut -d' ' -f1)
stamp=$dashboard_tests/node_modules/.installed-lock-sha256
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_digest" ]; then
  echo "install-deps: npm ci in $dashboard_tests"
  (cd "$dashboard_tests" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_digest" >"$stamp"
fi
