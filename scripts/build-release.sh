#!/usr/bin/env bash
# The release gym, the one every script, `make release` and the Dockerfile use: a fully static
# executable (Swift runtime, Foundation, SQLite, zlib, libstdc++ and glibc linked in). Static,
# because a short command is mostly start-up: with shared libraries the dynamic loader's symbol
# lookups alone took about 1 ms of a 10 ms `gym history list` (Docs/Performance.md).
# Prints the binary's path on stdout; the build's output goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product gym -Xswiftc -static-executable)
# Generic types reached through accessor functions, not mangled names: a mangled name costs the
# runtime a scan of every protocol conformance in the binary to check the type's requirements
# (history list --limit 20: 72 -> 54 scans, 5.2 -> 4.3 ms).
flags+=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
# What a short command touches, placed together by lld from scripts/startup-order.txt
# (make-startup-order.py): 537 -> 387 page faults, 4.6 -> 3.8 ms. A toolchain without lld
# links as before, only slower to start.
if [[ -f scripts/startup-order.txt ]] && { command -v ld.lld >/dev/null 2>&1 || [[ -x "$(dirname "$(command -v swiftc)")/ld.lld" ]]; }; then
  flags+=(-Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections)
  flags+=(-Xlinker "--symbol-ordering-file=$PWD/scripts/startup-order.txt" -Xlinker --no-warn-symbol-ordering)
fi
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/gym"
