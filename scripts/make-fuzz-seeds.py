#!/usr/bin/env python3
"""Writes the numeric-edge seeds every fuzz target replays (Fuzz/regressions/TARGET/edge-*) and the
libFuzzer dictionaries make fuzz uses (Fuzz/dict/TARGET.dict): 1e30, -0, nan, inf, 1e400, 2^53 + 1,
2^63, far dates and 30,000-deep nesting — the inputs that once trapped gym, which random mutation
seldom reaches. Run it again after changing it; the files are committed."""
import os

ROOT = os.path.join(os.path.dirname(__file__), "..", "Fuzz")
NUMBERS = ["1e30", "-1e30", "-0", "nan", "NaN", "inf", "-inf", "1e400", "9007199254740993", "9223372036854775807",
           "9223372036854775808", "-9223372036854775809", "99999999999999999999"]
DATES = ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "10000-01-01T00:00:00Z", "0000-00-00", "2024-02-30",
         "-2024-01-01"]
DEEP = 30000


def write(target, name, text):
    folder = os.path.join(ROOT, "regressions", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write(text)


def seeds():
    yield "where", "edge-numbers", " || ".join(f"durationMinutes > {n}" for n in NUMBERS if n[0] != "N")
    yield "where", "edge-far-future", "completedAt < now + 106751991167d"
    yield "where", "edge-far-date", "completedAt < @9999-12-31 + 1d"
    yield "where", "edge-deep-not", "!" * DEEP + "(durationMinutes > 1)"
    yield "where", "edge-deep-parens", "(" * DEEP + "durationMinutes > 1" + ")" * DEEP
    yield "where", "edge-long-chain", " && ".join(["durationMinutes > 1"] * 900)
    yield "where", "edge-long-pattern", 'planTitle.contains("' + "%_" * 30000 + '")'
    yield "config", "edge-alias-bomb", "version: 1\nl0: &l0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"l{i}: &l{i} {{" + ", ".join(f"*l{i - 1} : {k}" for k in range(9)) + "}\n" for i in range(1, 10))
    yield "config", "edge-deep", "version: 1\nx: " + "[" * 100 + "]" * 100 + "\n"
    yield "config", "edge-numbers", "version: 1\ndatabase:\n  busy_timeout: 1e30\noutput:\n  page_size: 9223372036854775808\n"
    for i, n in enumerate(NUMBERS):
        yield "ndjson", f"edge-number-{i}", '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","at":"2026-11-21T10:00:00Z",' \
            f'"kind":"a","name":"n","count":{n},"ratio":{n},"flag":true}}\n'
        yield "csv", f"edge-number-{i}", "id,at,kind,name,count,ratio,flag\n" \
            f"6f9619ff-8b86-d011-b42d-00c04fc964ff,2026-11-21T10:00:00Z,a,n,{n},{n},true\n"
    for i, d in enumerate(DATES):
        yield "ndjson", f"edge-date-{i}", '{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","at":"' + d + \
            '","kind":"a","name":"n","count":1,"ratio":1,"flag":true}\n'
    yield "ndjson", "edge-deep", "[" * DEEP + "]" * DEEP + "\n"
    strong = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
    hevy = "title,start_time,end_time,exercise_title,set_type,weight_kg,reps,distance_km,duration_seconds,rpe\n"
    for i, n in enumerate(NUMBERS):
        yield "strong", f"edge-number-{i}", strong + f"2024-01-01 10:00:00,A,1h,X,1,{n},{n},{n},{n},,,{n}\n"
        yield "hevy", f"edge-number-{i}", hevy + f"A,8 Apr 2026 16:50,8 Apr 2026 17:50,X,normal,{n},{n},{n},{n},{n}\n"
    yield "strong", "edge-durations", strong + "".join(
        f"2024-01-01 10:00:00,A{i},{d},X,1,1,1,,,,,\n" for i, d in enumerate(
            ["9999999h 9999999h 9999999h 9999999h 9999999h 9999999h 9999999h 9999999h", "99999999:59:59", "1e30h"]))
    yield "strong", "edge-dates", strong + "".join(f"{d},A,1h,X,1,1,1,,,,,\n" for d in DATES)
    yield "hevy", "edge-dates", hevy + "".join(f"A,{d},{d},X,normal,1,1,,,\n" for d in
                                               ["32 Apr 2026, 16:50", "8 Apr 99999, 16:50", "8 Apr 26, 16:50"])
    goodreads = "Book Id,Title,Author,Exclusive Shelf,My Rating,Number of Pages,Date Read,Read Count\n"
    for i, n in enumerate(NUMBERS):
        yield "goodreads", f"edge-number-{i}", goodreads + f"{n},T,A,read,{n},{n},2024/01/01,{n}\n"
    yield "goodreads", "edge-dates", goodreads + "".join(f"1,T,A,read,1,1,{d},1\n" for d in ["99999/01/01", "0/0/0"])
    storygraph = "Title,Authors,ISBN/UID,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Star Rating,Owned?\n"
    for i, n in enumerate(NUMBERS):
        yield "storygraph", f"edge-number-{i}", storygraph + f"T,A,{n},read,2024/01/01,2024/01/02,,{n},{n},Yes\n"
    yield "storygraph", "edge-dates", storygraph + "".join(
        f"T,A,,did-not-finish,{d},{d},\"{d}-{d}, {d}-, -{d}\",1,,No\n" for d in ["99999/01/01", "0/0/0", "2024/02/30"])
    yield "storygraph", "edge-many-readings", storygraph + "T,A,,read,,,\"" + ", ".join(
        ["2024/01/01-2024/01/02"] * 2000) + "\",5000,5,Yes\n"
    record = '<Record type="HKQuantityTypeIdentifierStepCount" sourceName="W" unit="count" ' \
        'startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:05:00 +0000" value="{}"/>'
    workout = '<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="{}" durationUnit="min" ' \
        'totalDistance="{}" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:30:00 +0000"/>'
    for i, n in enumerate(NUMBERS):
        yield "health", f"edge-number-{i}", "<HealthData>" + record.format(n) + workout.format(n, n) + "</HealthData>\n"
    yield "health", "edge-deep", "<HealthData>" + "<a>" * DEEP + "</a>" * DEEP + "</HealthData>\n"


def dictionaries():
    tokens = NUMBERS + DATES + ["now", "@", "d", "w", "h", "nil", "!", "(", ")", "&&", "||", "[", "]", "{", "}"]
    for target in ["where", "config", "ndjson", "csv", "goodreads", "storygraph", "strong", "hevy", "health"]:
        folder = os.path.join(ROOT, "dict")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{target}.dict"), "w", encoding="utf-8") as f:
            f.write("# Numeric and date edges (scripts/make-fuzz-seeds.py).\n")
            for token in tokens:
                f.write('"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"\n')


for target, name, text in seeds():
    write(target, name, text)
dictionaries()
