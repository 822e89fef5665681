#!/usr/bin/env bash
# Renders Docs/report.png, the README's picture of `gym report`: sample data made up here (90 days of
# training from a generated Strong export, generated health samples, a few books, the sample pantry),
# the report written and photographed by headless Chromium. Run by `make docs`; needs chromium
# (scripts/setup.sh installs it as root).
set -euo pipefail
cd "$(dirname "$0")/.."
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "report-screenshot: chromium is needed; run: sudo apt-get install -y chromium" >&2
  exit 1
fi
swift build --product gym >/dev/null
gym=$PWD/.build/debug/gym
# A short path: Chromium keeps a Unix socket under TMPDIR, and a path over 107 bytes stops it.
scratch=$(mktemp -d /tmp/gym-report-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export GYM_DATABASE=$scratch/gym.sqlite GYM_LIBRARY_GOAL=24 TZ=UTC HOME=$scratch TMPDIR=$scratch
python3 - "$scratch" <<'PY'
import datetime, sys
out = sys.argv[1]
today = datetime.date.today()
lifts = [("Squat (Barbell)", 100), ("Bench Press (Barbell)", 70), ("Deadlift (Barbell)", 130),
         ("Overhead Press (Barbell)", 45), ("Pull Up", None), ("Bent Over Row (Barbell)", 60)]
with open(f"{out}/strong.csv", "w") as f:
    f.write("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n")
    for n, back in enumerate(range(90, 0, -2)):
        day = today - datetime.timedelta(days=back)
        if day.weekday() in (1, 3, 6):
            continue
        name = ["Legs", "Push", "Pull"][n % 3]
        for i, (lift, base) in enumerate(lifts[(n % 3) * 2:(n % 3) * 2 + 2]):
            for s in range(1, 5):
                weight = "" if base is None else f"{base + (90 - back) // 10 * 2.5:g}"
                f.write(f"{day} 18:00:00,{name},1h 5m,{lift},{s},{weight},{5 + (s == 4) * 3},,0,,,\n")
year = today.year
books = [("The Left Hand of Darkness", "Ursula K. Le Guin", 304, 5), ("Piranesi", "Susanna Clarke", 272, 4),
         ("Dune", "Frank Herbert", 604, 5), ("A Wizard of Earthsea", "Ursula K. Le Guin", 183, 4),
         ("The Dispossessed", "Ursula K. Le Guin", 387, 5), ("Station Eleven", "Emily St. John Mandel", 333, 4),
         ("Klara and the Sun", "Kazuo Ishiguro", 303, 3), ("The Fifth Season", "N. K. Jemisin", 468, 5)]
with open(f"{out}/goodreads.csv", "w") as f:
    f.write("Book Id,Title,Author,Exclusive Shelf,Date Read,Read Count,Number of Pages,My Rating\n")
    for i, (title, author, pages, rating) in enumerate(books):
        month = min(1 + i * 3 // 2, today.month)
        f.write(f"{i + 1},{title},{author},read,{year}/{month:02d}/{min(5 + i * 3, 28):02d},1,{pages},{rating}\n")
PY
"$gym" history import "$scratch/strong.csv" --from strong --weight-unit kg -q
"$gym" history samples generate --days 90 --seed 7 > "$scratch/samples.ndjson"
"$gym" history samples import "$scratch/samples.ndjson" -q
"$gym" library import goodreads "$scratch/goodreads.csv" -q
"$gym" staples seed -q
"$gym" report --out "$scratch/report.html" -q
shoot() {  # width, height, file, page (default: the report)
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$scratch/profile" --window-size="$1,$2" \
    --virtual-time-budget=5000 --screenshot="$3" "file://${4:-$scratch/report.html}" >/dev/null 2>&1
  echo "wrote $3 ($(($(stat -c %s "$3") / 1024)) KiB)"
}
if [[ ${1:-} == --widths ]]; then
  # make report-screenshots: the same report at a phone's width and a desk's, for review.
  out=${2:-.build/report-screenshots}
  mkdir -p "$out"
  # Chromium's window is at least 500 px wide: the phone is a 390 px frame at the left of a grey page.
  cat >"$scratch/phone.html" <<'HTML'
<!doctype html><html><body style="margin: 0; background: #888">
<iframe src="report.html" style="border: 0; width: 390px; height: 7000px; background: #fff"></iframe>
</body></html>
HTML
  shoot 500 7000 "$out/report-390.png" "$scratch/phone.html"
  shoot 1280 4200 "$out/report-1280.png"
  cp "$scratch/report.html" "$out/report.html"
else
  shoot 960 2600 "$scratch/report.png"
  cp "$scratch/report.png" Docs/report.png
fi
