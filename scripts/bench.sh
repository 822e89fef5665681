#!/usr/bin/env bash
# make bench: gym's figures on 1,000,000 generated workouts (and health, staples, library), side by side with the sqlite3 shell and
# sqlite-utils on the same rows and schema. Prints a report and writes it to Docs/Performance.md.
# Whole-process timings come from hyperfine; peak memory from GNU time's maximum resident set size.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

ROWS=${ROWS:-1000000}
WORK=${BENCH_DIR:-$PWD/.build/bench}
REPORT=${REPORT:-Docs/Performance.md}
mkdir -p "$WORK"

need() {  # command, Debian package
  command -v "$1" >/dev/null 2>&1 && return
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    echo "bench: '$1' is missing; run: sudo apt-get install -y $2" >&2
    exit 1
  fi
}
need sqlite3 sqlite3
need hyperfine hyperfine
[[ -x /usr/bin/time ]] || need /usr/bin/time time
if [[ ! -x "$WORK/venv/bin/sqlite-utils" ]]; then
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install -q sqlite-utils
fi
SQLITE_UTILS="$WORK/venv/bin/sqlite-utils"

GYM=$(bash scripts/build-release.sh)
export TZ=UTC

out=$(mktemp)
say() { printf '%s\n' "$*" | tee -a "$out"; }
# Every timed run starts after `sync`: the kernel writing back the previous step's hundreds of
# megabytes otherwise competes with the run for the two cores (gym import of the export: 3.50-4.26 s
# without, 3.35-3.46 s with; Docs/PerformanceNotes.md).
# Peak resident memory (MiB) and wall seconds of one command, output to /dev/null.
measure() {
  local log; log=$(mktemp)
  sync
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
  local kb wall
  kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$log")
  wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$log")
  echo "$((kb / 1024)) MiB, $wall"
  rm -f "$log"
}
median() {  # hyperfine JSON -> median ms
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.2f" % (x["median"]*1000) for x in r))' "$1"
}
pooled_median() {  # names (3) then hyperfine JSON files -> each name's median ms over all its runs
  python3 -c '
import json, statistics, sys
names, files = sys.argv[1:4], sys.argv[4:]
times = {name: [] for name in names}
for path in files:
    for result in json.load(open(path))["results"]:
        times[result["command"]] += result["times"]
print(" ".join("%.2f" % (statistics.median(times[name]) * 1000) for name in names))
' "$@"
}

echo "bench: generating $ROWS workouts" >&2
"$GYM" history sample --count "$ROWS" --days 3650 --seed 7 --format ndjson >"$WORK/workouts.ndjson"
"$GYM" history sample --count "$ROWS" --days 3650 --seed 7 --format csv >"$WORK/workouts-header.csv"
tail -n +2 "$WORK/workouts-header.csv" >"$WORK/workouts.csv"

# The same table for the sqlite3 shell: the seven columns the CSV has, with gym's CHECKs on them, on
# an implicit rowid (the same storage as gym's `seq`); then without the CHECKs (the floor).
cat >"$WORK/schema-checked.sql" <<'SQL'
CREATE TABLE workout (
  id TEXT NOT NULL,
  completedAt TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('completed', 'skipped')),
  planTitle TEXT NOT NULL,
  focus TEXT CHECK (focus IN ('fullBody', 'upper', 'lower', 'push', 'pull', 'legs', 'core', 'cardio', 'mobility', 'sport')),
  durationMinutes REAL CHECK (durationMinutes >= 0),
  intensity TEXT CHECK (intensity IN ('low', 'moderate', 'high'))
);
SQL
python3 scripts/strip-checks.py <"$WORK/schema-checked.sql" >"$WORK/schema-plain.sql"
cat >"$WORK/indexes.sql" <<'SQL'
CREATE UNIQUE INDEX workout_id ON workout(id);
CREATE INDEX workout_completedAt ON workout(completedAt);
CREATE INDEX workout_status ON workout(status);
CREATE INDEX workout_status_completedAt ON workout(status, completedAt);
SQL

say "# Performance"
say ""
say "Measured by \`make bench\` ($(date -u +%Y-%m-%d), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(sqlite3 --version | cut -d' ' -f1) shell, gym release build: one static executable), $ROWS generated workouts."
say ""
say "## Import"
# The shell at its best does what gym does: the rows into a plain rowid table, then every index,
# in its default (rollback) journal; WAL beside it for comparison; the floor without the CHECKs.
imports=$(mktemp)
load="'.import --csv $WORK/workouts.csv workout' \"\$(cat $WORK/indexes.sql)\""
hyperfine --runs 3 --export-json "$imports" \
  --prepare "sync; rm -f $WORK/gym.sqlite* $WORK/checked.sqlite* $WORK/wal.sqlite* $WORK/floor.sqlite*; sqlite3 $WORK/checked.sqlite < $WORK/schema-checked.sql; (echo 'PRAGMA journal_mode = WAL;'; cat $WORK/schema-checked.sql) | sqlite3 $WORK/wal.sqlite >/dev/null; sqlite3 $WORK/floor.sqlite < $WORK/schema-plain.sql" \
  -n "gym history import (NDJSON)" "GYM_DATABASE=$WORK/gym.sqlite $GYM history import --quiet $WORK/workouts.ndjson" \
  -n "gym history import (CSV)" "GYM_DATABASE=$WORK/gym.sqlite $GYM history import --quiet $WORK/workouts-header.csv" \
  -n "sqlite3, same CHECKs, default journal" "sqlite3 $WORK/checked.sqlite $load" \
  -n "sqlite3, same CHECKs, WAL" "sqlite3 $WORK/wal.sqlite $load" \
  -n "sqlite3 floor: no CHECKs" "sqlite3 $WORK/floor.sqlite $load" >&2
read -r gym_import gym_csv_import checked_import wal_import floor_import <<<"$(median "$imports")"
rm -f "$WORK"/gym.sqlite*
gym_import_mem=$(GYM_DATABASE=$WORK/gym.sqlite measure "$GYM" history import --quiet "$WORK/workouts.ndjson")
ratio() { python3 -c "print('%.2f×' % ($1 / $2))"; }
say ""
say "| command | median | ratio to the floor | ratio to the shell with the same CHECKs |"
say "| --- | --- | --- | --- |"
say "| \`gym history import workouts.ndjson\` | ${gym_import} ms | $(ratio "$gym_import" "$floor_import") | $(ratio "$gym_import" "$checked_import") |"
say "| \`gym history import workouts.csv\` | ${gym_csv_import} ms | $(ratio "$gym_csv_import" "$floor_import") | $(ratio "$gym_csv_import" "$checked_import") |"
say "| \`sqlite3\`, the same CHECKs, default journal | ${checked_import} ms | $(ratio "$checked_import" "$floor_import") | 1.00× |"
say "| \`sqlite3\`, the same CHECKs, WAL | ${wal_import} ms | $(ratio "$wal_import" "$floor_import") | $(ratio "$wal_import" "$checked_import") |"
say "| \`sqlite3\` floor: no CHECKs, default journal | ${floor_import} ms | 1.00× | $(ratio "$floor_import" "$checked_import") |"
say ""
say "The shell's commands, each into a new file: \`sqlite3 checked.sqlite < schema-checked.sql\` (the seven columns"
say "with gym's CHECKs, no index; for WAL, \`PRAGMA journal_mode = WAL;\` before it; for the floor, the same without"
say "the CHECKs), then \`sqlite3 checked.sqlite '.import --csv workouts.csv workout' \"\$(cat indexes.sql)\"\`: the rows,"
say "then the four indexes, unique id included, as gym builds them. gym import peak memory and wall time (one run,"
say "GNU time): $gym_import_mem. Targets: ≤ 1.2× the floor, ≤ 1.0× the shell with the same CHECKs, < 50 MiB."
if [[ ${SQLITE_UTILS_IMPORT:-1} == 1 ]]; then
  rm -f "$WORK/su.sqlite"*
  sqlite3 "$WORK/su.sqlite" < "$WORK/schema-checked.sql" >/dev/null
  su_import=$( { /usr/bin/time -f %e "$SQLITE_UTILS" insert "$WORK/su.sqlite" workout "$WORK/workouts.ndjson" --nl >/dev/null; } 2>&1 | tail -n 1)
  say ""
  say "sqlite-utils insert --nl of the same NDJSON: ${su_import} s (one run)."
fi

DB="$WORK/gym.sqlite"
rm -f "$DB"*
GYM_DATABASE=$DB "$GYM" history import --quiet "$WORK/workouts.ndjson"
sync  # the import's pages written back before the short commands are timed
Q="SELECT id, completedAt, status, planTitle, focus, durationMinutes, intensity FROM workout ORDER BY completedAt DESC, rowid DESC LIMIT 20"
say ""
say "## Newest 20, whole process"
# A short command's time drifts with the machine's load over minutes, so the three run in five
# alternating rounds and each median pools its rounds: the ratios compare like with like.
rounds=()
for round in 1 2 3 4 5; do
  echo "bench: newest 20, round $round of 5" >&2
  rounds+=("$(mktemp)")
  hyperfine --warmup 3 --runs 20 -N --style basic --export-json "${rounds[-1]}" \
    -n "gym" "$GYM history list --limit 20 --format csv --database $DB" \
    -n "sqlite3" "sqlite3 -csv $DB \"$Q\"" >&2
  rounds+=("$(mktemp)")
  hyperfine --warmup 1 --runs 2 -N --style basic --export-json "${rounds[-1]}" \
    -n "sqlite-utils" "$SQLITE_UTILS query $DB \"$Q\"" >&2
done
read -r gym_list sqlite_list su_list <<<"$(pooled_median gym sqlite3 sqlite-utils "${rounds[@]}")"
say ""
say "| command | median | ratio |"
say "| --- | --- | --- |"
say "| \`gym history list --limit 20\` | ${gym_list} ms | 1.00× |"
say "| \`sqlite3\` same query | ${sqlite_list} ms | gym is $(python3 -c "print('%.2f×' % ($gym_list/$sqlite_list))") of sqlite3 (target ≤ 2×) |"
say "| \`sqlite-utils query\` same query | ${su_list} ms | gym is $(python3 -c "print('%.1f×' % ($su_list/$gym_list))") faster (target ≥ 20×) |"
say ""
say "Medians over five alternating rounds (100 runs each of gym and sqlite3, 10 of sqlite-utils), \`--format csv\`."

say ""
say "## Deep pages, whole process"
DEPTH=$((ROWS / 2))
cursor=$("$GYM" history list --database "$DB" --limit "$DEPTH" --fields id --format csv 2>&1 >/dev/null | sed -n 's/^next page: --after //p')
# Alternating rounds again: one run of each after another would compare different minutes.
pages=()
for round in 1 2 3 4 5; do
  pages+=("$(mktemp)")
  hyperfine --warmup 2 --runs 10 -N --style basic --export-json "${pages[-1]}" \
    -n "page 1" "$GYM history list --database $DB --format csv --limit 20" \
    -n "after" "$GYM history list --database $DB --format csv --limit 20 --after $cursor" \
    -n "offset" "$GYM history list --database $DB --format csv --limit 20 --offset $DEPTH" >&2
done
read -r page1 after offset <<<"$(pooled_median "page 1" after offset "${pages[@]}")"
say ""
say "| page | median | ratio to page 1 |"
say "| --- | --- | --- |"
say "| page 1 | ${page1} ms | 1.00× |"
say "| \`--after\` at depth $DEPTH | ${after} ms | $(python3 -c "print('%.2f×' % ($after/$page1))") (target ≤ 1.2×) |"
say "| \`--offset $DEPTH\` | ${offset} ms | $(python3 -c "print('%.2f×' % ($offset/$page1))") |"

say ""
say "## Everything, streamed"
say ""
say "\`gym history list --limit 0 --format ndjson > /dev/null\` over $ROWS rows: $(measure "$GYM" history list --database "$DB" --limit 0 --format ndjson) (peak memory, wall; target < 40 MiB)."

# Peak memory (MiB) and wall seconds of one command, as two numbers.
numbers() {
  local log; log=$(mktemp)
  sync
  /usr/bin/time -f "%M %e" "$@" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
  tail -n 1 "$log" | awk '{printf "%d %s", $1 / 1024, $2}'
  rm -f "$log"
}

echo "bench: exports of the 1,000,000-workout database with the sample pantry and 20,000 books" >&2
python3 scripts/make-goodreads-export.py 20000 "$WORK/goodreads.csv"
"$GYM" staples seed --database "$DB" 2>/dev/null || true
"$GYM" library import goodreads --quiet --database "$DB" "$WORK/goodreads.csv"
TABLES=$(sqlite3 "$DB" "SELECT group_concat(name, ' ') FROM sqlite_master WHERE type = 'table' AND name IN
  ('workout','sample','workout_set','work','author','work_author','edition','library_entry','grocery_item','recipe','recipe_ingredient')")
EXPORT_ROWS=$(sqlite3 "$DB" "SELECT $(for t in $TABLES; do printf '(SELECT COUNT(*) FROM %s) + ' "$t"; done) 0")
EX="$WORK/exports"
export_row() {  # label, then the command; prints a table row: wall, rows/s, size, peak memory
  local label=$1; shift
  rm -rf "$EX" && mkdir -p "$EX"
  local log; log=$(mktemp)
  /usr/bin/time -f "%M %e" bash -c "$*" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
  read -r kb secs <<<"$(tail -n 1 "$log")"
  rm -f "$log"
  local bytes; bytes=$(du -sb "$EX" | cut -f1)
  say "| $label | ${secs} s | $(python3 -c "print('%.0f' % ($EXPORT_ROWS / max($secs, 0.001)))") | $(python3 -c "print('%.1f MB' % ($bytes / 1e6))") | $((kb / 1024)) MiB |"
  echo "$secs"
}
say ""
say "## Export ($EXPORT_ROWS rows in $(echo $TABLES | wc -w) tables)"
say ""
say "| command | wall | rows/s | output | peak memory (the pipeline: its largest process) |"
say "| --- | --- | --- | --- | --- |"
g6=$(export_row "\`gym export\` (NDJSON, gzip -6)" "'$GYM' export --database '$DB' --out '$EX' --level 6" | tail -n 1)
s6=$(export_row "\`sqlite3 -json\` per table, piped to \`gzip -6\`" "for t in $TABLES; do sqlite3 -json '$DB' \"SELECT * FROM \$t ORDER BY rowid\" | gzip -6 > '$EX'/\$t.json.gz; done" | tail -n 1)
g1=$(export_row "\`gym export --level 1\`" "'$GYM' export --database '$DB' --out '$EX' --level 1" | tail -n 1)
s1=$(export_row "\`sqlite3 -json\` per table, piped to \`gzip -1\`" "for t in $TABLES; do sqlite3 -json '$DB' \"SELECT * FROM \$t ORDER BY rowid\" | gzip -1 > '$EX'/\$t.json.gz; done" | tail -n 1)
export_row "\`gym export --format csv\`" "'$GYM' export --database '$DB' --out '$EX' --format csv" >/dev/null
export_row "\`gym export --format sqlite\` (snapshot, gzip -6)" "'$GYM' export --database '$DB' --out '$EX' --format sqlite" >/dev/null
export_row "\`sqlite3 .dump\`, piped to \`gzip -6\`" "sqlite3 '$DB' .dump | gzip -6 > '$EX/dump.sql.gz'" >/dev/null
rm -rf "$EX"
say ""
say "gym's NDJSON+gzip export takes $(python3 -c "print('%.2f×' % ($g6 / $s6))") the wall time of \`sqlite3 -json\` piped to \`gzip -6\` (target ≤ 1.2×, under 40 MiB);"
say "$(python3 -c "print('%.2f×' % ($g1 / $s1))") at level 1. Encoding and compression run on two threads."

echo "bench: gym import of that export, and the sqlite3 shell loading the same rows" >&2
IMP="$WORK/import"
rm -rf "$IMP" && mkdir -p "$IMP/exports"
RESTORE=$("$GYM" export --database "$DB" --out "$IMP/exports" --level 6 2>/dev/null)
IMPORT_TABLES=$(python3 -c "import json, sys; print(' '.join(t['name'] for t in json.load(open(sys.argv[1] + '/manifest.json'))['tables']))" "$RESTORE")
IMPORT_ROWS=$(python3 -c "import json, sys; print(sum(t['rows'] for t in json.load(open(sys.argv[1] + '/manifest.json'))['tables']))" "$RESTORE")
names=$(for t in $IMPORT_TABLES; do printf "'%s'," "$t"; done)
names=${names%,}
# The shell's best path on the same rows: each table's rows as headerless CSV (made untimed), its
# tables without CHECK constraints (scripts/strip-checks.py) or indexes, .import, then every index.
sqlite3 "$DB" "SELECT sql || ';' FROM sqlite_master WHERE type = 'table' AND name IN ($names)" |
  python3 scripts/strip-checks.py >"$IMP/tables.sql"
sqlite3 "$DB" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ($names)" >"$IMP/indexes.sql"
: >"$IMP/load.sql"
for t in $IMPORT_TABLES; do
  sqlite3 -csv "$DB" "SELECT * FROM \"$t\" ORDER BY rowid" >"$IMP/$t.csv"
  echo ".import --csv $IMP/$t.csv $t" >>"$IMP/load.sql"
done
cat "$IMP/indexes.sql" >>"$IMP/load.sql"
restores=$(mktemp)
hyperfine --runs 5 --export-json "$restores" \
  --prepare "sync; rm -f $IMP/gym.sqlite* $IMP/best.sqlite*; sqlite3 $IMP/best.sqlite < $IMP/tables.sql >/dev/null" \
  -n "gym import" "$GYM import --quiet --database $IMP/gym.sqlite $RESTORE" \
  -n "sqlite3 best path" "sqlite3 $IMP/best.sqlite < $IMP/load.sql" >&2
read -r gym_restore best_restore <<<"$(median "$restores")"
rm -f "$IMP"/gym.sqlite*
restore_mem=$(measure "$GYM" import --quiet --database "$IMP/gym.sqlite" "$RESTORE")
say ""
say "## gym import of that export ($IMPORT_ROWS rows, NDJSON, gzip -6)"
say ""
say "| command | median | rows/s | ratio to the shell |"
say "| --- | --- | --- | --- |"
say "| \`gym import EXPORT --database new.sqlite\` | ${gym_restore} ms | $(python3 -c "print('%.0f' % ($IMPORT_ROWS / $gym_restore * 1000))") | $(python3 -c "print('%.2f×' % ($gym_restore / $best_restore))") |"
say "| \`sqlite3\` best path on the same rows | ${best_restore} ms | $(python3 -c "print('%.0f' % ($IMPORT_ROWS / $best_restore * 1000))") | 1.00× |"
say ""
say "Target: at least 300,000 rows/s. gym checks every file's SHA-256, inflates and parses the NDJSON, checks the"
say "foreign keys and builds the full-text index; the shell reads plain CSV. Its commands: each table's rows written"
say "as headerless CSV beforehand (\`sqlite3 -csv gym.sqlite 'SELECT * FROM t ORDER BY rowid' > t.csv\`), the tables"
say "created without indexes or CHECK constraints (its \`.import\` stores a NULL as '', which they would refuse), in its default journal,"
say "then \`sqlite3 best.sqlite < load.sql\`: an \`.import --csv t.csv t\` per table, then every index. gym import peak"
say "memory and wall time (one run, GNU time): $restore_mem."
rm -rf "$IMP"

# Right after the whole-process import, so that both of the export import's figures (this section's
# `export.import`, in-process) meet the machine at the same pace: it drifts by a quarter within minutes.
echo "bench: in-process query times, the export and its import" >&2
say ""
say "## In-process query times (\`gym bench --database …\`)"
say ""
say '```'
"$GYM" bench --database "$DB" --repeat 50 | tee -a "$out"
say '```'

HEALTH=${HEALTH_RECORDS:-2000000}
echo "bench: generating an Apple Health export of $HEALTH records" >&2
python3 scripts/make-health-export.py "$HEALTH" "$WORK/health.xml" "$WORK/health.zip"
python3 scripts/make-health-export.py "$((HEALTH / 4))" "$WORK/health-quarter.xml"
if [[ ! -x "$WORK/venv/bin/healthkit-to-sqlite" ]]; then "$WORK/venv/bin/pip" install -q healthkit-to-sqlite; fi
rm -f "$WORK"/h*.sqlite*
read -r mem_xml _ <<<"$(numbers "$GYM" history import-health --quiet --database "$WORK/h1.sqlite" "$WORK/health.xml")"
# The throughput target's wall time: the median of three runs, not one.
hyperfine --runs 3 --export-json "$WORK/health.json" --prepare "sync; rm -f '$WORK/h1.sqlite'*" \
  "'$GYM' history import-health --quiet --database '$WORK/h1.sqlite' '$WORK/health.xml'" >&2
secs_xml=$(python3 -c "print('%.2f' % ($(median "$WORK/health.json") / 1000))")
read -r mem_quarter secs_quarter <<<"$(numbers "$GYM" history import-health --quiet --database "$WORK/h2.sqlite" "$WORK/health-quarter.xml")"
read -r mem_zip secs_zip <<<"$(numbers "$GYM" history import-health --quiet --database "$WORK/h3.sqlite" "$WORK/health.zip")"
rm -f "$WORK/hk.db"
read -r mem_hk secs_hk <<<"$(numbers "$WORK/venv/bin/healthkit-to-sqlite" "$WORK/health.zip" "$WORK/hk.db" --silent)"
mb=$(python3 -c "import os; print('%.0f' % (os.path.getsize('$WORK/health.xml') / 1e6))")
say ""
say "## Apple Health import ($HEALTH records, ${mb} MB export.xml)"
say ""
say "| command | wall | throughput | peak memory |"
say "| --- | --- | --- | --- |"
say "| \`gym history import-health export.xml\` | ${secs_xml} s (median of 3) | $(python3 -c "print('%.0f MB/s, %.0f records/s' % ($mb / $secs_xml, $HEALTH / $secs_xml))") | ${mem_xml} MiB |"
say "| same, a 4× smaller export | ${secs_quarter} s | | ${mem_quarter} MiB (difference $((mem_xml - mem_quarter)) MiB; target ±10) |"
say "| \`gym history import-health export.zip\` | ${secs_zip} s | | ${mem_zip} MiB |"
say "| \`healthkit-to-sqlite export.zip\` (PyPI) | ${secs_hk} s | | ${mem_hk} MiB |"
say ""
say "gym is $(python3 -c "print('%.1f×' % ($secs_hk / $secs_zip))") faster than healthkit-to-sqlite on the same zip (target ≥ 5×); targets for export.xml: ≥ 100 MB/s, peak memory < 64 MiB."

echo "bench: filling a database with samples (${SUMMARY_DAYS:-26000} days, ~192 a day from a watch, a phone and an app) and 10,000 workouts" >&2
SUMMARY_DB="$WORK/summary.sqlite"
rm -f "$SUMMARY_DB"*
"$GYM" history samples generate --days "${SUMMARY_DAYS:-26000}" --seed 5 | "$GYM" history samples import --quiet --database "$SUMMARY_DB" -
"$GYM" history sample --count 10000 --days 3650 | "$GYM" history import --quiet --database "$SUMMARY_DB" -
say ""
say "## Summary on $("$GYM" history samples count --database "$SUMMARY_DB") samples from three sources and 10,000 workouts (in-process)"
say ""
say '```'
"$GYM" bench --database "$SUMMARY_DB" --repeat 30 | grep -E "operation|summary|daily|recent" | tee -a "$out"
say '```'

echo "bench: staples on 200,000 items and 20,000 recipes" >&2
say ""
say "## Staples on 200,000 items (40 categories, 10% staples) and 20,000 recipes (in-process)"
say ""
say '```'
"$GYM" bench --module staples --scale 200000 --repeat 30 | tee -a "$out"
say '```'

SYNC_CHANGES=${SYNC_CHANGES:-10000}
SYNC_BASE=${SYNC_BASE:-1000000}
echo "bench: sync of $SYNC_CHANGES changes each way, a base of $SYNC_BASE workouts" >&2
say ""
say "## Sync: $SYNC_CHANGES changes each way, a base of $SYNC_BASE workouts (in-process; rclone to a local directory)"
say ""
say "Two devices each make $SYNC_CHANGES changes (a new item each, its own transaction), then sync in turn: the"
say "first pushes, the second pulls, merges (its own changes sort after the first's: undone and applied again) and"
say "pushes, the first pulls. Then a device holding $SYNC_BASE generated workouts syncs for the first time (its rows"
say "keyed, one change), compacts, and a new device starts from that base. Each reference is an export of the same"
say "rows and its import into a new database (\`gym export create\` and \`gym import\` in-process); each sync's"
say "target is ten times it (the same order)."
say ""
say '```'
"$GYM" bench --module sync --scale "$SYNC_CHANGES" --base "$SYNC_BASE" --repeat 3 | tee -a "$out"
say '```'

WORKS=${LIBRARY_WORKS:-100000}
echo "bench: library on $WORKS works" >&2
say ""
say "## Library on $WORKS works (~$((WORKS * 3 / 10)) authors, ~$((WORKS * 3 / 2)) editions, $WORKS entries; in-process)"
say ""
say '```'
kept=$(mktemp)
"$GYM" bench --module library --scale "$WORKS" --repeat 10 --keep 2> >(tee "$kept" >&2) | tee -a "$out"
say '```'
LIB_DB=$(sed -n 's/^kept the benchmark database: //p' "$kept")
"$GYM" bench --module library --scale 1000 --repeat 1 --keep 2>"$kept" >/dev/null
LIB_SMALL=$(sed -n 's/^kept the benchmark database: //p' "$kept")
read -r mem_list secs_list <<<"$(numbers "$GYM" library list --limit 0 --format ndjson --database "$LIB_DB")"
read -r mem_small secs_small <<<"$(numbers "$GYM" library list --limit 0 --format ndjson --database "$LIB_SMALL")"
read -r mem_graph secs_graph <<<"$(numbers "$GYM" library show --all --format ndjson --database "$LIB_DB")"
list_mb=$("$GYM" library list --limit 0 --format ndjson --database "$LIB_DB" | wc -c | awk '{printf "%.1f", $1 / 1e6}')
graph_mb=$("$GYM" library show --all --format ndjson --database "$LIB_DB" | wc -c | awk '{printf "%.1f", $1 / 1e6}')
say ""
say "| command (to /dev/null) | works | peak memory | wall | output |"
say "| --- | --- | --- | --- | --- |"
say "| \`gym library list --limit 0 --format ndjson\` (projected) | $WORKS | ${mem_list} MiB | ${secs_list} s | ${list_mb} MB |"
say "| same | 1000 | ${mem_small} MiB (difference $((mem_list - mem_small)) MiB; target ±10) | ${secs_small} s | |"
say "| \`gym library show --all --format ndjson\` (full graph) | $WORKS | ${mem_graph} MiB | ${secs_graph} s | ${graph_mb} MB |"
say ""
say "Target: the projected list under 40 MiB. Both stream (the full graph is four statements merged by work id), so"
say "neither grows with the library; the projection's saving shows as time and bytes read."
hyperfine --warmup 1 --runs 5 --export-json "$WORK/goodreads.json" \
  --prepare "sync; rm -f '$WORK/goodreads.sqlite'*" \
  "'$GYM' library import goodreads --quiet --database '$WORK/goodreads.sqlite' '$WORK/goodreads.csv'" >&2
import_ms=$(median "$WORK/goodreads.json")
hyperfine --warmup 1 --runs 5 --export-json "$WORK/goodreads-again.json" \
  "'$GYM' library import goodreads --quiet --database '$WORK/goodreads.sqlite' '$WORK/goodreads.csv'" >&2
again_ms=$(median "$WORK/goodreads-again.json")
say ""
say "Goodreads import of a generated 20,000-row export (31 columns, every quirk): ${import_ms} ms median into a new"
say "database, $(python3 -c "print('%.0f' % (20000 / ($import_ms / 1000)))") rows/s; importing it again (nothing changes): ${again_ms} ms."
rm -rf "$(dirname "$LIB_DB")" "$(dirname "$LIB_SMALL")" "$kept"

MIGRATE_ROWS=${MIGRATE_ROWS:-4000000}
echo "bench: a rebuild migration on $MIGRATE_ROWS workouts" >&2
# A database at history/005 (before the workout rebuild), filled by the sqlite3 shell.
migrate_db() {  # path rows
  rm -f "$1"* && "$GYM" migrate up --database "$1" --to history/005-set-duration-seconds 2>/dev/null
  sqlite3 "$1" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT $2)
    INSERT INTO workout (id, completedAt, status, planTitle, focus, durationMinutes, intensity)
    SELECT printf('00000000-0000-4000-8000-%012d', i), strftime('%Y-%m-%dT%H:%M:%S.000Z', 1500000000 + i * 600, 'unixepoch'),
      CASE i % 9 WHEN 0 THEN 'skipped' ELSE 'completed' END, CASE i % 7 WHEN 0 THEN 'Soccer' ELSE 'Push Day' END,
      CASE i % 7 WHEN 0 THEN 'fullBody' ELSE 'push' END, 30 + i % 60, 'moderate' FROM n;"
}
migrate_db "$WORK/migrate.sqlite" "$MIGRATE_ROWS"
migrate_db "$WORK/migrate-small.sqlite" "$((MIGRATE_ROWS / 10))"
db_mb=$(python3 -c "import os; print('%.0f' % (os.path.getsize('$WORK/migrate.sqlite') / 1e6))")
log=$(mktemp)
/usr/bin/time -f "%M %e" "$GYM" migrate up --database "$WORK/migrate.sqlite" 2>"$log" || { cat "$log" >&2; exit 1; }
read -r mem_migrate secs_migrate <<<"$(tail -n 1 "$log" | awk '{printf "%d %s", $1 / 1024, $2}')"
steps=$(grep '^applied' "$log" | sed 's/.*verified in \([0-9.]* s\).*backup: .*(\([0-9.]* s\))/migrations \1, backup \2/')
/usr/bin/time -f "%M %e" "$GYM" migrate up --database "$WORK/migrate-small.sqlite" 2>"$log" || { cat "$log" >&2; exit 1; }
read -r mem_small secs_small <<<"$(tail -n 1 "$log" | awk '{printf "%d %s", $1 / 1024, $2}')"
rm -f "$log" "$WORK"/migrate*.sqlite*
say ""
say "## Migration: the workout rebuild (history/006) on a ${db_mb} MB database"
say ""
say "| database | wall | of which | peak memory |"
say "| --- | --- | --- | --- |"
say "| $MIGRATE_ROWS workouts, ${db_mb} MB | ${secs_migrate} s | ${steps} | ${mem_migrate} MiB |"
say "| $((MIGRATE_ROWS / 10)) workouts | ${secs_small} s | | ${mem_small} MiB (difference $((mem_migrate - mem_small)) MiB) |"
say ""
say "\`gym migrate up\` from history/005: verified backup, the 12-step rebuild of \`workout\` with its four indexes,"
say "the foreign-key check of \`workout_set\` and the row counts of every table, in one transaction."

say ""
say "Reproduce: \`make bench\` (ROWS=… to change the size). Raw hyperfine runs are printed on stderr."
say ""
say "Measurements taken by hand, outside this run (the report, the import changes before and after, profiles):"
say "[PerformanceNotes.md](PerformanceNotes.md)."

cp "$out" "$REPORT"
echo "bench: wrote $REPORT" >&2
