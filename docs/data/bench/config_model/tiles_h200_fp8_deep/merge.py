"""Replace the fp8 rows of a card's table with those of a new ``lab tiles`` run.

    python3 merge.py NEW.csv TABLE.csv
"""
import csv
import sys

new = list(csv.DictReader(open(sys.argv[1])))
old = list(csv.DictReader(open(sys.argv[2])))
assert new and list(new[0]) == list(old[0]) and all(r["precision"] == "fp8" for r in new)
assert all(r["ok"] == "True" for r in new), "a call missed its float64 bound"
rows = [r for r in old if r["precision"] != "fp8"] + new
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(old[0]))
    w.writeheader()
    w.writerows(rows)
print(f"{len(old)} rows -> {len(rows)} ({len(new)} fp8)")
