#!/usr/bin/env python3
"""Writes a synthetic Apple Health export (export.xml, optionally zipped) for `make bench`.

It carries the real file's shape: a DOCTYPE with an internal DTD subset, <HealthData locale>,
<ExportDate>, <Me>, <Record> elements of several types in US units (lb, mi, Cal), some with
<MetadataEntry> children, sleep analysis stages, unknown types, and <Workout> elements with
<WorkoutStatistics> children. Usage: make-health-export.py RECORDS OUT.xml [OUT.zip]
"""
import random
import sys
import zipfile
from datetime import datetime, timedelta

HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 11 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
]>
<HealthData locale="en_US">
 <ExportDate value="2024-06-01 09:00:00 -0700"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
"""

KINDS = [
    ("HKQuantityTypeIdentifierStepCount", "count", lambda r: str(r.randint(10, 1500)), 30),
    ("HKQuantityTypeIdentifierHeartRate", "count/min", lambda r: str(r.randint(55, 150)), 30),
    ("HKQuantityTypeIdentifierActiveEnergyBurned", "Cal", lambda r: "%.3f" % r.uniform(0.1, 20), 15),
    ("HKQuantityTypeIdentifierDistanceWalkingRunning", "mi", lambda r: "%.5f" % r.uniform(0.001, 0.6), 12),
    ("HKQuantityTypeIdentifierBasalEnergyBurned", "Cal", lambda r: "%.3f" % r.uniform(0.5, 2), 5),
    ("HKQuantityTypeIdentifierBodyMass", "lb", lambda r: "%.1f" % r.uniform(150, 170), 1),
    ("HKQuantityTypeIdentifierOxygenSaturation", "%", lambda r: "%.2f" % r.uniform(0.93, 1), 3),
    ("HKCategoryTypeIdentifierSleepAnalysis", None, None, 4),
]
STAGES = ["HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
          "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake",
          "HKCategoryValueSleepAnalysisInBed"]


def stamp(t):
    return t.strftime("%Y-%m-%d %H:%M:%S -0700")


def main():
    records, out = int(sys.argv[1]), sys.argv[2]
    rand = random.Random(7)
    weights = [k[3] for k in KINDS]
    t = datetime(2015, 1, 1)
    with open(out, "w") as f:
        f.write(HEADER)
        for i in range(records):
            t += timedelta(seconds=rand.randint(20, 400))
            kind, unit, value, _ = rand.choices(KINDS, weights)[0]
            end = t + timedelta(minutes=rand.randint(0, 30))
            source = rand.choice(["Jane&apos;s iPhone", "Jane&apos;s Apple Watch"])
            if unit is None:
                f.write(f' <Record type="{kind}" sourceName="{source}" sourceVersion="17.2" '
                        f'creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}" '
                        f'value="{rand.choice(STAGES)}"/>\n')
            elif i % 10 == 0:
                f.write(f' <Record type="{kind}" sourceName="{source}" sourceVersion="17.2" unit="{unit}" '
                        f'creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}" value="{value(rand)}">\n'
                        f'  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n')
            else:
                f.write(f' <Record type="{kind}" sourceName="{source}" sourceVersion="17.2" '
                        f'device="&lt;&lt;HKDevice: 0x2830&gt;, name:Apple Watch&gt;" unit="{unit}" '
                        f'creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}" value="{value(rand)}"/>\n')
            if i % 2000 == 0:
                f.write(f' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min" '
                        f'sourceName="Jane&apos;s Apple Watch" startDate="{stamp(t)}" endDate="{stamp(t + timedelta(minutes=32))}">\n'
                        f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{stamp(t)}" '
                        f'endDate="{stamp(t + timedelta(minutes=32))}" sum="301.2" unit="Cal"/>\n </Workout>\n')
        f.write("</HealthData>\n")
    if len(sys.argv) > 3:
        with zipfile.ZipFile(sys.argv[3], "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
            z.write(out, "apple_health_export/export.xml")


if __name__ == "__main__":
    main()
