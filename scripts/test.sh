#!/usr/bin/env bash
# Everything CI checks: set-up, formatting (swift format lint --strict), the compose file against
# the Compose Specification, the whole test suite, and the end-to-end tests again against the static
# release binary that `make install`, the bench and the Dockerfile ship.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every test makes its own scratch directory: all of them go under one that is removed at the end,
# so repeated runs do not fill the machine's /tmp.
scratch=$(mktemp -d)
chmod 1777 "$scratch"  # as /tmp is: the permission tests run gym as another user in it
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch
bash scripts/setup.sh
swift format lint --strict -r Sources Tests Plugins Package.swift
bash scripts/check-compose.sh
swift build --build-tests
# The unit tests read local days and hours in UTC: the zone is given to the process, never set by a test.
export TZ=UTC
swift test --skip-build
GYM_TEST_BINARY=$(bash scripts/build-release.sh) swift test --skip-build --filter GymEndToEndTests
