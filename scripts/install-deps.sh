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

# The dashboard's browser tests: playwright-core (1.62 and later) needs Node 20 or newer, which
# Debian 12's own nodejs (18) is not. Without it everything else is still installed; the browser
# tests' ctest entry then fails saying why (tests/dashboard/run-browser-tests.sh).
dashboard_tests=$(cd "$(dirname "$0")/.." && pwd)/tests/dashboard
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ] || ! command -v npm >/dev/null; then
  echo "install-deps: the dashboard's browser tests need Node 20 or newer with npm (found node" \
       "$(node --version)$(command -v npm >/dev/null || echo ', no npm')); they will fail until then" >&2
  exit 0
fi
wanted=$(node -p 'require(process.argv[1]).dependencies["playwright-core"]' "$dashboard_tests/package.json")
installed=$(node -p 'try { require(process.argv[1]).version } catch { "" }' \
                 "$dashboard_tests/node_modules/playwright-core/package.json")
if [ "$installed" != "$wanted" ]; then
  echo "install-deps: npm ci in $dashboard_tests (playwright-core $wanted)"
  (cd "$dashboard_tests" && npm ci --no-audit --no-fund)
fi
