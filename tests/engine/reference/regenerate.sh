#!/bin/sh
# Rewrites syntax_engine_links.tsv, the Digital Link URIs GS1's Syntax Engine
# writes for seeded random AIs, which reference_order_test.cpp requires the
# service to write byte for byte.
#
#   tests/engine/reference/regenerate.sh <gs1-syntax-engine git checkout> [<build dir>]
#
# The checkout's HEAD (a clone of https://github.com/gs1/gs1-syntax-engine, a
# work tree or a bare repository) is extracted and its C library built in a
# temporary folder, with gs1_syntax_engine_links.c beside this script; nothing
# of it enters the repository but the URIs. The build dir (default: build) must
# hold tools/codepayload/codepayload (ninja -C build codepayload): the cases the
# service refuses are left out. Needs git, make, cc, python3.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
seed=20260127
count=1000

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 <gs1-syntax-engine git checkout> [<build dir>]" >&2
  exit 2
fi
checkout=$1
build=${2:-$root/build}
codepayload=$build/tools/codepayload/codepayload
[ -x "$codepayload" ] || { echo "no $codepayload: build it first (ninja -C $build codepayload)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/se"
git -C "$checkout" archive HEAD | tar -x -C "$work/se"
commit=$(git -C "$checkout" rev-parse HEAD)
described=$(git -C "$checkout" describe --tags --always HEAD)
version=$(grep -m1 -Eo '^[0-9]+\.[0-9]+\.[0-9]+' "$work/se/CHANGES")
lib=$work/se/src/c-lib
theirs=$lib/gs1-syntax-dictionary.txt
their_release=$(sed -n 's/^# Release: *//p' "$theirs" | head -n1)
our_release=$(sed -n 's/^# release: *//p' "$root/rules/baseline/dictionary.baseline" | head -n1)
ours=$root/../shared/gs1/gs1-syntax-dictionary-$our_release.txt

echo "building the Syntax Engine $described ($commit) in $work" >&2
make -s -C "$lib" libstatic >&2
cc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -I"$lib" "$here/gs1_syntax_engine_links.c" "$lib/build/libgs1encoders.a" \
  -o "$work/links"

python3 "$here/reference_cases.py" generate --seed "$seed" --count "$count" >"$work/cases.tsv"
python3 "$here/reference_cases.py" keep-same-ais --ours "$ours" --theirs "$theirs" \
  <"$work/cases.tsv" >"$work/same.tsv" 2>"$work/differing.txt"
"$work/links" "$theirs" <"$work/same.tsv" >"$work/links.tsv" 2>"$work/refused-se.txt"
python3 "$here/reference_cases.py" keep-accepted --codepayload "$codepayload" \
  --baseline "$root/rules/baseline/dictionary.baseline" --rules-dir "$root/rules" \
  <"$work/links.tsv" >"$work/kept.tsv" 2>"$work/refused-service.txt"

differing=$(wc -l <"$work/differing.txt")
refused_se=$(wc -l <"$work/refused-se.txt")
refused_service=$(wc -l <"$work/refused-service.txt")
kept=$(wc -l <"$work/kept.tsv")
{
  echo "# The Digital Link URIs GS1's Syntax Engine writes for these AIs; reference_order_test.cpp"
  echo "# requires the service to write the same, byte for byte (docs/decisions.md D-Q1)."
  echo "# Generated, do not edit: tests/engine/reference/regenerate.sh <gs1-syntax-engine checkout> [<build dir>]"
  echo "# Syntax Engine: gs1/gs1-syntax-engine $version ($described, commit $commit),"
  echo "#   its C library loading its own Syntax Dictionary, release $their_release."
  echo "# release: $our_release (the service's dictionary the cases were checked against)"
  echo "# Cases: reference_cases.py generate --seed $seed --count $count; left out: $differing with an AI"
  echo "#   whose entry differs between the two dictionaries, $refused_se refused by the Syntax Engine,"
  echo "#   $refused_service refused by the service; kept: $kept."
  echo "# One case a line, three fields separated by a TAB: the AIs in input order as the Syntax"
  echo "# Engine got them (bracketed, a \"(\" in a value written \"\\(\"), the stem, the URI."
  cat "$work/kept.tsv"
} >"$work/fixture.tsv"
mv "$work/fixture.tsv" "$here/syntax_engine_links.tsv"

cat "$work/differing.txt" "$work/refused-se.txt" "$work/refused-service.txt" >&2
echo "wrote $here/syntax_engine_links.tsv: $kept cases ($differing differing AIs, $refused_se refused by the Syntax Engine, $refused_service by the service)" >&2
