#!/usr/bin/env python3
"""Writes scripts/startup-order.txt: the functions and data a short gym command touches.

The release link (scripts/build-release.sh) places the sections holding these symbols first, so
a short command's code and data share pages: `gym history list --limit 20` faults 387 pages
instead of 537 (Docs/PerformanceNotes.md, "Newest 20, whole process"). A name the binary no longer has is
skipped by the linker, so a stale list costs speed, never correctness.

Usage: python3 scripts/make-startup-order.py GYM_BINARY   (or `make startup-order`; needs valgrind)
"""

import bisect
import os
import re
import subprocess
import sys
import tempfile

# The short commands whose start-up the order serves: the benchmark's listing and its neighbours.
COMMANDS = [
    ["history", "list", "--limit", "20", "--format", "csv"],
    ["history", "list"],
    ["history", "count"],
    ["library", "list"],
    ["staples", "list"],
]


def run(args, **kwargs):
    return subprocess.run(args, check=True, **kwargs)


def data_ranges(binary):
    """The LOAD segments that are not code: constants, type descriptors, data, caches and .bss."""
    out = run(["readelf", "-l", "-W", binary], capture_output=True, text=True).stdout
    ranges = []
    for line in out.splitlines():
        fields = line.split()
        if fields[:1] == ["LOAD"] and "E" not in fields[6:-1]:
            start, size = int(fields[2], 16), int(fields[5], 16)
            ranges.append((start, start + size))
    return ranges


def data_symbols(binary):
    out = run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True).stdout
    symbols = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "bBdDrRvVsS":
            symbols.append((int(fields[0], 16), max(int(fields[1], 16), 1), fields[3]))
    symbols.sort()
    return symbols


def functions_called(binary, command, env, scratch):
    """Every function the command runs, in the order callgrind first meets them."""
    out = os.path.join(scratch, "callgrind.out")
    run(
        ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", binary, *command],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names = []
    with open(out) as profile:
        for line in profile:
            match = re.match(r"^c?fn=\(\d+\) (.+)$", line.strip())
            if match:
                names.append(re.sub(r"'\d+$", "", match.group(1)))
    return names


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    gym = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as scratch:
        # valgrind cannot read the release binary's DWARF 5 name index; the symbol table is enough.
        binary = os.path.join(scratch, "gym")
        run(["strip", "--strip-debug", "-o", binary, gym])
        env = dict(os.environ, GYM_DATABASE=os.path.join(scratch, "sample.sqlite"))
        sample = run([gym, "history", "sample", "--count", "200", "--days", "120"], capture_output=True).stdout
        run([gym, "history", "import", "--quiet", "-"], input=sample, env=env)

        ranges = data_ranges(binary)
        symbols = data_symbols(binary)
        starts = [start for start, _, _ in symbols]
        order, seen, granules = [], set(), set()

        def add(name):
            if name not in seen:
                seen.add(name)
                order.append(name)

        for command in COMMANDS:
            for name in functions_called(binary, command, env, scratch):
                add(name)
        for command in COMMANDS:
            read_fd, write_fd = os.pipe()
            lackey = subprocess.Popen(
                ["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-fd={write_fd}", binary, *command],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_fd,))
            os.close(write_fd)
            with os.fdopen(read_fd) as log:
                for line in log:
                    # " L 04766000,8", " S …", " M …"; instruction fetches ("I  …") are not data.
                    if len(line) < 4 or line[0] != " " or line[1] not in "LSM":
                        continue
                    address = int(line[3:].split(",", 1)[0], 16)
                    if address >> 3 in granules or not any(low <= address < high for low, high in ranges):
                        continue
                    granules.add(address >> 3)
                    index = bisect.bisect_right(starts, address) - 1
                    if index >= 0:
                        start, size, name = symbols[index]
                        if address < start + size:
                            add(name)
            lackey.wait()
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "startup-order.txt")
    with open(target, "w") as out:
        out.write("\n".join(order) + "\n")
    print(f"{target}: {len(order)} symbols", file=sys.stderr)


if __name__ == "__main__":
    main()
