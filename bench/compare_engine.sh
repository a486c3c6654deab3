#!/usr/bin/env bash
# bench/compare_engine.sh BEFORE AFTER [WORK_DIR]: the engine benchmark of
# this tree run against two commits, side by side. Each commit is exported
# with `git archive` (the shared working tree is not touched), given this
# tree's bench/ engine sources (so both run the same cases), built in Release
# with the same flags, then measured:
#  - instructions per code under callgrind (codepayload_engine_profile), which
#    do not depend on how busy the machine is;
#  - CPU time per code (codepayload_engine_bench), the two builds alternating
#    COMPARE_ROUNDS times (default 3), medians.
# Prints a Markdown table. WORK_DIR (default: a new temporary directory) keeps
# the sources and builds, so a second run only rebuilds what changed.
set -euo pipefail

die() {
  echo "bench/compare_engine.sh: $*" >&2
  exit 1
}

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: bench/compare_engine.sh BEFORE_COMMIT AFTER_COMMIT [WORK_DIR]" >&2
  exit 64
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/codepayload-compare.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
rounds=${COMPARE_ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "COMPARE_ROUNDS must be a whole number >= 1"
jobs=${COMPARE_JOBS:-2}
for tool in git cmake ninja valgrind; do command -v "$tool" >/dev/null || die "$tool is not installed"; done
trap 'echo "bench/compare_engine.sh: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

labels=()
for commit in "$1" "$2"; do
  sha=$(git -C "$repo" rev-parse --short "$commit^{commit}") || die "no commit $commit"
  labels+=("$sha")
  tree=$work/$sha
  if [ ! -d "$tree/main" ]; then
    mkdir -p "$tree/main"
    git -C "$repo" archive "$sha" | tar -x -C "$tree/main"
    # Only the engine and the importer are built: the top-level CMakeLists.txt
    # skips a folder without a CMakeLists.txt, so the server, the admin tool
    # and the tests (possibly half-finished at an old commit) stay out.
    rm -f "$tree/main/server/CMakeLists.txt" "$tree/main/tools/admin/CMakeLists.txt" "$tree/main/tests/CMakeLists.txt"
  fi
  # The shipped rules and the tests look for ../shared beside the tree.
  [ -e "$tree/shared" ] || ln -s "$(cd "$repo/.." && pwd)/shared" "$tree/shared"
  mkdir -p "$tree/main/bench"
  for file in CMakeLists.txt engine_cases.h engine_bench.cpp engine_profile.cpp; do
    cp "$repo/bench/$file" "$tree/main/bench/$file"
  done
  echo "== building $sha" >&2
  cmake -S "$tree/main" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DCODEPAYLOAD_BENCH=ON -DCODEPAYLOAD_TESTS=OFF >"$tree/configure.log" 2>&1 || { cat "$tree/configure.log" >&2; die "configure $sha"; }
  ninja -C "$tree/build" -j "$jobs" codepayload_engine_bench codepayload_engine_profile >"$tree/build.log" 2>&1 ||
    { tail -30 "$tree/build.log" >&2; die "build $sha"; }
done

cases=(digital-link element-string three-faults mixed-batch)
benchmarks=(BM_DigitalLinkFourAis BM_ElementStringFourAis BM_ThreeFaults BM_MixedBatchJson/10000)
declare -A instructions cpu

echo "== callgrind" >&2
for sha in "${labels[@]}"; do
  for case_name in "${cases[@]}"; do
    repetitions=20000
    [ "$case_name" = mixed-batch ] && repetitions=5
    valgrind --tool=callgrind --callgrind-out-file="$work/$sha-$case_name.callgrind" --toggle-collect='*profiledLoop*' \
      "$work/$sha/build/bench/codepayload_engine_profile" "$case_name" "$repetitions" >"$work/$sha-$case_name.log" 2>&1 ||
      { cat "$work/$sha-$case_name.log" >&2; die "callgrind $sha $case_name"; }
    codes=$(sed -n 's/^codes processed: //p' "$work/$sha-$case_name.log")
    total=$(sed -n 's/^summary: //p' "$work/$sha-$case_name.callgrind")
    instructions[$sha-$case_name]=$(awk -v t="$total" -v c="$codes" 'BEGIN { printf "%.0f", t / c }')
  done
done

echo "== timing: $rounds rounds, the two builds alternating" >&2
for round in $(seq "$rounds"); do
  for sha in "${labels[@]}"; do
    "$work/$sha/build/bench/codepayload_engine_bench" --benchmark_out="$work/$sha-$round.csv" --benchmark_out_format=csv \
      >"$work/$sha-$round.log" 2>&1 || { cat "$work/$sha-$round.log" >&2; die "benchmark $sha"; }
  done
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for sha in "${labels[@]}"; do
  for i in "${!benchmarks[@]}"; do
    values=()
    for round in $(seq "$rounds"); do
      values+=("$(awk -F, -v name="\"${benchmarks[$i]}\"" '$1 == name { print ($5 == "ms") ? $4 * 1e6 : $4 }' "$work/$sha-$round.csv")")
    done
    per_code=$(median "${values[@]}")
    [ "${cases[$i]}" = mixed-batch ] && per_code=$(awk -v v="$per_code" 'BEGIN { print v / 10000 }')
    cpu[$sha-${cases[$i]}]=$per_code
  done
done

before=${labels[0]}
after=${labels[1]}
echo "| case | Ir/code $before | Ir/code $after | change | CPU ns/code $before | CPU ns/code $after | change |"
echo "|---|---|---|---|---|---|---|"
for case_name in "${cases[@]}"; do
  awk -v name="$case_name" -v ib="${instructions[$before-$case_name]}" -v ia="${instructions[$after-$case_name]}" \
    -v cb="${cpu[$before-$case_name]}" -v ca="${cpu[$after-$case_name]}" \
    'BEGIN { printf "| %s | %d | %d | %+.0f %% | %.0f | %.0f | %+.0f %% |\n", name, ib, ia, (ia / ib - 1) * 100, cb, ca, (ca / cb - 1) * 100 }'
done
echo "Work dir: $work" >&2
