#!/usr/bin/env bash
# Bounded fuzzing smoke run (CI: make fuzz-smoke). Runs each libFuzzer target
# for a fixed time over a copy of its seed corpus (tests/fuzz/corpus/<target>)
# with its dictionary (tests/fuzz/dict/<target>.dict), and fails on any crash,
# leak, timeout or invariant violation. Prints the executions per target.
#
#   tests/fuzz/run-smoke.sh BUILD_DIR [SECONDS_PER_TARGET]   (default 40)
#
# Crash reproducers are kept in BUILD_DIR/fuzz-artifacts/<target>/; replay one
# with: BUILD_DIR/tests/fuzz/<target> <reproducer>
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 BUILD_DIR [SECONDS_PER_TARGET]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
seconds=${2:-40}
fuzz_dir=$(cd "$(dirname "$0")" && pwd)
shared_gs1="$fuzz_dir/../../../shared/gs1"
targets=(fuzz_codes_request fuzz_payload_reader fuzz_parse fuzz_dictionary_import fuzz_token_request fuzz_jwt_verify fuzz_http_request)

work=$(mktemp -d "${TMPDIR:-/tmp}/codepayload-fuzz-smoke-XXXXXX")
trap 'rm -rf "$work"' EXIT

failed=()
for target in "${targets[@]}"; do
  executable="$build_dir/tests/fuzz/$target"
  if [ ! -x "$executable" ]; then
    echo "run-smoke: $executable is missing (configure with CC=clang CXX=clang++ -DCODEPAYLOAD_FUZZ=ON" \
         "and build codepayload_fuzz_targets)" >&2
    exit 2
  fi
  corpus="$work/$target"
  artifacts="$build_dir/fuzz-artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  cp "$fuzz_dir/corpus/$target"/* "$corpus/"
  # Whole GS1 releases are seeds too, read from shared/ (never copied into the repository).
  if [ "$target" = fuzz_dictionary_import ] && [ -d "$shared_gs1" ]; then
    cp "$shared_gs1"/gs1-syntax-dictionary-*.txt "$corpus/"
  fi
  options=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -max_len=8192
           -print_final_stats=1 -artifact_prefix="$artifacts/")
  [ -f "$fuzz_dir/dict/$target.dict" ] && options+=(-dict="$fuzz_dir/dict/$target.dict")

  log="$work/$target.log"
  status=0
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$executable" "${options[@]}" "$corpus" >"$log" 2>&1 || status=$?
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "run-smoke: $target FAILED (exit $status) after ${executions:-?} executions; the end of its log:"
    tail -n 60 "$log"
    echo "run-smoke: reproducers in $artifacts/"
  else
    echo "run-smoke: $target ok: ${executions:-?} executions in ${seconds} s"
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "run-smoke: failed: ${failed[*]}"
  exit 1
fi
echo "run-smoke: ${#targets[@]} passed, 0 failed"
