#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs to build, test and run.
# Idempotent: does nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates openssl libsystemd-dev
  libpoco-dev liblua5.4-dev libsqlite3-dev libssl-dev libgtest-dev libgmock-dev libsimdjson-dev
  libargon2-dev
  sqlite3 curl python3 python3-jsonschema nodejs systemd prometheus
)
if [ "${CODEPAYLOAD_BENCH_DEPS:-0}" = 1 ]; then packages+=(libbenchmark-dev wrk valgrind); fi
if [ "${CODEPAYLOAD_FUZZ_DEPS:-0}" = 1 ]; then packages+=(clang libclang-rt-dev); fi
if [ "${CODEPAYLOAD_PACKAGE_DEPS:-0}" = 1 ]; then packages+=(help2man lintian debootstrap); fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
