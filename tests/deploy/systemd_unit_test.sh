#!/usr/bin/env bash
# deploy/codepayload.service passes `systemd-analyze verify` without a single
# remark (an unknown key or a bad value is only a warning there, so any output
# fails). The unit's ExecStart names /usr/bin/codepayload-server, which verify
# requires to exist: the copy checked here names the binary just built.
# usage: systemd_unit_test.sh SOURCE_DIR SERVER_EXECUTABLE
set -euo pipefail
source=$1 server=$2
command -v systemd-analyze >/dev/null || { echo "systemd_unit_test: systemd-analyze is not installed (scripts/install-deps.sh)"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
grep -q '^ExecStart=/usr/bin/codepayload-server$' "$source/deploy/codepayload.service" \
  || { echo "FAILED: deploy/codepayload.service does not start /usr/bin/codepayload-server"; exit 1; }
sed "s|^ExecStart=.*|ExecStart=$server|" "$source/deploy/codepayload.service" >"$scratch/codepayload.service"
status=0
output=$(systemd-analyze verify --man=no "$scratch/codepayload.service" 2>&1) || status=$?
if [ "$status" != 0 ] || [ -n "$output" ]; then
  echo "FAILED: systemd-analyze verify exited $status:"
  echo "$output"
  exit 1
fi
echo "systemd-analyze verify: deploy/codepayload.service is clean ($(systemd-analyze --version | head -1))"
