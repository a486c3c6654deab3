#!/usr/bin/env bash
# The example session of docs/api.md is what scripts/example-session.sh prints on a fresh data
# directory (ids, secrets, times, ports and durations masked), and the comparison catches drift: a
# document whose command, output line or line count differs is refused; one that differs only in
# masked values is accepted.
# usage: example_session_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source=$1
export BUILD_DIR=$2
script=$source/scripts/example-session.sh
doc=$source/docs/api.md
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0

"$script" >"$scratch/session.txt"
"$script" --compare "$scratch/session.txt" "$doc" || { echo "FAILED: docs/api.md drifted"; failed=1; }

# expect_compare STATUS DESCRIPTION SED_EXPRESSION: the document edited by the expression compares so.
expect_compare() {
  sed -E "$3" "$doc" >"$scratch/api.md"
  if cmp -s "$doc" "$scratch/api.md"; then echo "FAILED: $2: the edit changed nothing"; failed=1; return; fi
  local status=0
  "$script" --compare "$scratch/session.txt" "$scratch/api.md" >/dev/null 2>&1 || status=$?
  [ "$status" = "$1" ] || { echo "FAILED: $2: --compare exited $status, not $1"; failed=1; }
}
expect_compare 1 'an output line changed' 's#^HTTP/1.1 200 OK#HTTP/1.1 201 Created#'
expect_compare 1 'a command changed' 's#--plan starter#--plan pro#'
expect_compare 1 'a header dropped' '/^X-Content-Type-Options: nosniff/d'
expect_compare 1 'RS256 token shown' 's#eyJhbGciOiJFUzI1NiIsImtpZCI6#eyJhbGciOiJSUzI1NiIsImtpZCI6#'
expect_compare 1 'the markers gone' '/^<!-- example-session: (begin|end)/d'
expect_compare 0 'another org id, time and duration' \
  's#org_[A-Za-z0-9]{16}#org_0123456789abcdef#g; s#"durationUs":[0-9]+#"durationUs":7#; s#T[0-9]{2}:[0-9]{2}:[0-9]{2}Z#T01:02:03Z#'

[ "$failed" = 0 ] && echo "example_session_test: passed" && exit 0
echo "example_session_test: failed"
exit 1
