"""Replace the bf16 and fp16 rows of the config model's table with those of a new lab tiles run."""
import csv, sys
path = 'src/swizzlekit/data/tiles_h200.csv'
old = list(csv.DictReader(open(path)))
new = list(csv.DictReader(open(sys.argv[1])))
assert list(old[0]) == list(new[0])
rows = [r for r in old if r['precision'] not in ('bf16', 'fp16')] + new
w = csv.DictWriter(open(path, 'w', newline=''), fieldnames=list(old[0]))
w.writeheader(); w.writerows(rows)
print('merged', len(old), '->', len(rows))
