#!/usr/bin/env python3
"""Import speed of two gym binaries on make bench's import workloads, alternating run by run in one
session so that both see the same machine: the check that a change to the importers costs no more
than it should. Usage: compare-imports.py OLD_GYM NEW_GYM [ROUNDS]

Workloads (sizes from the environment): WORKOUTS generated workouts as NDJSON and as CSV
(`history import`), an Apple Health export.xml of HEALTH records (`history import-health`), and a
Goodreads export of GOODREADS rows (`library import goodreads`); each run into a new database.
Prints each workload's median CPU seconds (user + system, which disk and neighbours disturb far
less than wall time) and median wall seconds per binary, and the ratios new/old. WORK_DIR (default
/dev/shm when it exists) holds the files and databases."""
import atexit
import shutil
import os
import statistics
import subprocess
import sys
import tempfile
import time

old, new = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
workouts = int(os.environ.get("WORKOUTS", "300000"))
health = int(os.environ.get("HEALTH", "500000"))
goodreads = int(os.environ.get("GOODREADS", "20000"))
here = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp(prefix="gym-compare-", dir=os.environ.get("WORK_DIR", "/dev/shm" if os.path.isdir("/dev/shm") else None))
# Removed however the script ends (a failing run exits through sys.exit): its inputs are large.
atexit.register(shutil.rmtree, work, ignore_errors=True)
env = dict(os.environ, TZ="UTC")


def run(arguments, **kwargs):
    subprocess.run(arguments, check=True, env=env, **kwargs)


ndjson = os.path.join(work, "workouts.ndjson")
with open(ndjson, "w") as out:
    run([new, "history", "sample", "--count", str(workouts), "--days", "3650"], stdout=out)
scratch = os.path.join(work, "scratch.sqlite")
run([new, "history", "import", "--quiet", "--database", scratch, ndjson])
csv = os.path.join(work, "workouts.csv")
with open(csv, "w") as out:
    run([new, "history", "list", "--limit", "0", "--format", "csv", "--database", scratch], stdout=out)
xml = os.path.join(work, "export.xml")
run(["python3", os.path.join(here, "make-health-export.py"), str(health), xml], stdout=subprocess.DEVNULL)
books = os.path.join(work, "goodreads.csv")
run(["python3", os.path.join(here, "make-goodreads-export.py"), str(goodreads), books], stdout=subprocess.DEVNULL)

workloads = {
    f"history import ({workouts} workouts, NDJSON)": ["history", "import", "--quiet", ndjson],
    f"history import ({workouts} workouts, CSV)": ["history", "import", "--quiet", csv],
    f"history import-health ({health} records)": ["history", "import-health", "--quiet", xml],
    f"library import goodreads ({goodreads} rows)": ["library", "import", "goodreads", "--quiet", books],
}
database = os.path.join(work, "run.sqlite")
times = {(name, binary): [] for name in workloads for binary in (old, new)}
cpu = {(name, binary): [] for name in workloads for binary in (old, new)}
for round_number in range(rounds):
    for name, arguments in workloads.items():
        order = (old, new) if round_number % 2 == 0 else (new, old)
        for binary in order:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(database + suffix):
                    os.remove(database + suffix)
            os.sync()
            start = time.perf_counter()
            child = subprocess.Popen([binary] + arguments + ["--database", database], stdout=subprocess.DEVNULL, env=env)
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode != 0:
                sys.exit(f"{binary} {' '.join(arguments)}: exit {child.returncode}")
            times[(name, binary)].append(time.perf_counter() - start)
            cpu[(name, binary)].append(usage.ru_utime + usage.ru_stime)

print(f"{rounds} alternating rounds; medians in seconds")
print("| workload | old CPU | new CPU | new/old CPU | old wall | new wall | new/old wall |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name in workloads:
    a, b = (statistics.median(cpu[(name, binary)]) for binary in (old, new))
    c, d = (statistics.median(times[(name, binary)]) for binary in (old, new))
    print(f"| {name} | {a:.3f} | {b:.3f} | {b / a:.3f} | {c:.3f} | {d:.3f} | {d / c:.3f} |")
