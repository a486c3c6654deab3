#!/usr/bin/env bash
# scripts/install-deps.sh keeps the one list of Debian packages, in two modes: `run` (what
# scripts/run.sh and make run install) holds the build and nothing the tests alone need, neither a
# browser, Node.js, npm, Prometheus, a PostgreSQL server nor GoogleTest; `test` (scripts/test.sh, make test) holds all of
# `run` and the tests' own. Reads the lists with --list, installs nothing.
# usage: install_deps_test.sh SOURCE_DIR
set -euo pipefail
source=$1
deps=$source/scripts/install-deps.sh
failed=0
fail() { echo "FAILED: $*"; failed=1; }

run_list=$(bash "$deps" --list run)
test_list=$(bash "$deps" --list test)
[ -n "$run_list" ] || fail "install-deps.sh --list run printed nothing"

for forbidden in '^chromium' '^npm$' '^nodejs' '^prometheus' '^libgtest' '^libgmock' '^node-' '^postgresql' '^haproxy'; do
  if grep -E -q "$forbidden" <<<"$run_list"; then
    fail "the run list holds $(grep -E "$forbidden" <<<"$run_list" | tr '\n' ' ')"
  fi
done
for needed in build-essential cmake ninja-build pkg-config libpoco-dev libssl-dev libargon2-dev libpq-dev libzint-dev; do
  grep -qx "$needed" <<<"$run_list" || fail "the run list lacks $needed"
done
for needed in libgtest-dev libgmock-dev chromium-headless-shell nodejs prometheus curl postgresql-15 haproxy; do
  grep -qx "$needed" <<<"$test_list" || fail "the test list lacks $needed"
done
while read -r package; do
  grep -qx "$package" <<<"$test_list" || fail "the test list lacks $package of the run list"
done <<<"$run_list"

# The quick start's commands use those modes, and so does make.
grep -qx 'scripts/install-deps.sh run' "$source/scripts/run.sh" || fail "scripts/run.sh does not install the run list"
grep -qx 'scripts/install-deps.sh test' "$source/scripts/test.sh" || fail "scripts/test.sh does not install the test list"
if command -v make >/dev/null; then
  make_run=$(make -n -C "$source" run BUILD=/nonexistent-build 2>&1)
  grep -q 'install-deps.sh run' <<<"$make_run" || fail "make run does not install the run list: $make_run"
  if grep -q 'install-deps.sh test' <<<"$make_run"; then fail "make run installs the test list"; fi
fi
bash "$deps" --list bogus >/dev/null 2>&1 && fail "install-deps.sh accepted the mode bogus"

[ "$failed" = 0 ] && echo "install_deps_test: passed" && exit 0
echo "install_deps_test: failed"
exit 1
