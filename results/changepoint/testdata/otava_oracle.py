"""The oracle of changepoint's tests: Apache Otava's change points.

Reads a JSON list of {"name", "series", "window", "max_pvalue"} on stdin
and writes, for each, the change points Otava's compute_change_points
finds (index, p-value, magnitude, and the p-value tested again over the
final intervals) as a JSON list on stdout.
"""
import json
import sys

from otava.analysis import TTestSignificanceTester, compute_change_points

out = []
for case in json.load(sys.stdin):
    points, _ = compute_change_points(
        case["series"], window_len=case["window"], max_pvalue=case["max_pvalue"], min_magnitude=0.0
    )
    # Otava's merge leaves a point's statistics as they were when the
    # point left of it is removed; "fresh_p" is each final point tested
    # again by Otava's own tester over the final intervals.
    tester = TTestSignificanceTester(case["max_pvalue"])
    intervals = tester.get_intervals(points)
    fresh = [tester.change_point(p.to_candidate(), case["series"], intervals) for p in points]
    out.append({
        "name": case["name"],
        "index": [int(p.index) for p in points],
        "p": [float(p.stats.pvalue) for p in points],
        "magnitude": [float(p.stats.change_magnitude()) for p in points],
        "fresh_p": [float(p.stats.pvalue) for p in fresh],
    })
json.dump(out, sys.stdout)
