#!/usr/bin/env bash
# make fuzz: builds gym-fuzz with libFuzzer (-sanitize=fuzzer) and runs every target for
# FUZZ_SECONDS (default 60) from its committed seed corpus (Fuzz/corpus/TARGET). The corpus grows
# in .build/fuzz/corpus, not in the repository; a crash is saved in .build/fuzz/crashes/TARGET —
# copy it to Fuzz/regressions/TARGET/ and the test suite replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
SECONDS_EACH=${FUZZ_SECONDS:-60}
TARGETS=${FUZZ_TARGETS:-"where config ndjson csv goodreads storygraph strong hevy health"}
SCRATCH=.build/fuzz
swift build -c release --product gym-fuzz --scratch-path "$SCRATCH/build" \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING >&2
FUZZER="$(swift build -c release --scratch-path "$SCRATCH/build" --show-bin-path)/gym-fuzz"
status=0
for target in $TARGETS; do
  mkdir -p "$SCRATCH/corpus/$target" "$SCRATCH/crashes/$target"
  log="$SCRATCH/$target.log"
  set +e
  # Swift's own crash reporter would take the signal before libFuzzer saves the input.
  SWIFT_BACKTRACE=enable=no GYM_FUZZ_TARGET=$target "$FUZZER" "$SCRATCH/corpus/$target" "Fuzz/corpus/$target" \
    "Fuzz/regressions/$target" \
    -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=1024 -max_len=65536 -dict="Fuzz/dict/$target.dict" \
    -artifact_prefix="$SCRATCH/crashes/$target/" >"$log" 2>&1
  code=$?
  set -e
  runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' || echo "?")
  crashes=$(find "$SCRATCH/crashes/$target" -type f | wc -l)
  echo "fuzz $target: ${SECONDS_EACH} s, $runs runs, corpus $(ls "$SCRATCH/corpus/$target" | wc -l) inputs, $crashes crash file(s) (exit $code)"
  if [[ $code -ne 0 || $crashes -ne 0 ]]; then status=1; tail -n 30 "$log" >&2; fi
done
exit $status
