"""Writes the lab's own history as series for changepoint's oracle test.

    python3 lab_series.py STORE > lab-series.json

STORE is a history store (SQLite) holding this repository's runs
(fplab history add results/runs/*). For every (cell, unit) of the units
below measured by five runs or more on one host, two series: the medians of
the runs in commit order (what fplab history changes reads), and every
repetition in that order (longer, with the runs' own scatter).
"""
import json
import sqlite3
import statistics
import sys
from collections import defaultdict

UNITS = {"rec/s", "ns/rec", "cpu-ns/rec", "dec-ns/rec", "allocs/rec", "peak-RSS-MB", "harness-RSS-MB"}

db = sqlite3.connect(sys.argv[1])
runs = {
    key: (host, commit_time or started, started, run_id)
    for key, run_id, host, commit_time, started, emulated in db.execute(
        "SELECT run_key, run_id, host_key, commit_time, started, emulated FROM runs"
    )
    if not emulated
}
values = defaultdict(lambda: defaultdict(list))
for cell, unit, run_key, value in db.execute(
    "SELECT c.name, v.unit, v.run_key, v.value FROM samples v JOIN cells c ON c.cell_key = v.cell_key "
    "ORDER BY v.run_key, v.rep"
):
    if unit in UNITS and run_key in runs:
        values[(cell, unit, runs[run_key][0])][run_key].append(value)

out = []
for (cell, unit, host), by_run in sorted(values.items()):
    if len(by_run) < 5:
        continue
    order = sorted(by_run, key=lambda k: runs[k][1:])
    name = f"{cell} {unit}"
    out.append({"name": name + " medians", "series": [statistics.median(by_run[k]) for k in order]})
    out.append({"name": name + " repetitions", "series": [v for k in order for v in by_run[k]]})
json.dump(out, sys.stdout, indent=None, separators=(",", ":"))
print()
