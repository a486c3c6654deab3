# Shell helpers shared by bench/run.sh and bench/profile.sh (sourced; the
# caller sets `script_name` first and keeps the pids it starts in `pids`).

die() {
  echo "$script_name: $*" >&2
  exit 1
}

# stop_process PID [TENTHS]: SIGTERM, then SIGKILL after TENTHS tenths of a
# second (default 150), then reaps it.
stop_process() {
  local pid=$1 limit=${2:-150} waited=0
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt "$limit" ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

stop_started_processes() {
  local pid
  for pid in "${pids[@]}"; do stop_process "$pid" "$@"; done
}

# require_built BUILD_DIR BINARY...: each BINARY exists and is executable.
require_built() {
  local build=$1 binary
  shift
  for binary in "$@"; do
    [ -x "$binary" ] || die "missing $binary (build $build with -DCODEPAYLOAD_BENCH=ON)"
  done
}

# json_field FILE NAME: the string value of "NAME" in the JSON of FILE.
json_field() { sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p" "$1"; }
