#!/usr/bin/env bash
# Quick start, first command: installs the Debian packages that building and
# running need (scripts/install-deps.sh run: make, the compiler, cmake, ninja,
# the libraries; nothing the tests alone need), builds the binaries, and runs
# codepayload-server with its embedded defaults (HTTPS on 127.0.0.1:8443,
# SQLite in ./data, a generated development certificate).
# Works as root on a bare Debian 12 (debootstrap --variant=minbase), or with sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh run
exec make run
