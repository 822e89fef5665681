#!/usr/bin/env bash
# Everything CI checks: set-up, formatting (swift format lint --strict) and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift format lint --strict -r Sources Tests Package.swift
swift build --build-tests
swift test --skip-build
