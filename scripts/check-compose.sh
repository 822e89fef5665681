#!/usr/bin/env bash
# Validates docker-compose.yml against the Compose Specification (check-jsonschema's vendored
# schema): no Docker engine runs on CI machines, so the file is checked, and the exporter's command
# is run for real by Tests/GymEndToEndTests/ComposeExporterTests.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=.build/tools
if [[ ! -x "$TOOLS/venv/bin/check-jsonschema" ]]; then
  python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install -q check-jsonschema
fi
"$TOOLS/venv/bin/check-jsonschema" --builtin-schema vendor.compose-spec docker-compose.yml
