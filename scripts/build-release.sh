#!/usr/bin/env bash
# The release gym, the one every script, `make release` and the Dockerfile use: a fully static
# executable (Swift runtime, Foundation, SQLite, zlib, libstdc++ and glibc linked in). Static,
# because a short command is mostly start-up: with shared libraries the dynamic loader's symbol
# lookups alone took about 1 ms of a 10 ms `gym history list` (Docs/Performance.md).
# Prints the binary's path on stdout; the build's output goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product gym -Xswiftc -static-executable)
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/gym"
