#!/usr/bin/env bash
# Quick start, second command: installs the Debian packages the build and the
# tests need (scripts/install-deps.sh test: those of scripts/run.sh and the
# tests' own, with the browser tests' npm packages), builds, and runs every
# test (make test).
# Works as root on a bare Debian 12 (debootstrap --variant=minbase), or with
# sudo; ../shared (the GS1 reference data) must be beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
exec make test
