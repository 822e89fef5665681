#!/usr/bin/env bash
# Everything CI checks: set-up, formatting (swift format lint --strict), the compose file against
# the Compose Specification, and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift format lint --strict -r Sources Tests Plugins Package.swift
bash scripts/check-compose.sh
swift build --build-tests
swift test --skip-build
