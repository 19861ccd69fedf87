"""Put each launch's own compiled resources into the committed L2 tables.

``kernel_resources.json`` (``kernel_resources.py``, on the H200) has the registers, shared
memory and residency of the kernel every run of ``l2_sweep_h200.csv`` and
``l2_fresh_h200.csv`` really launched. The sweeps had recorded those of the kernel compiled
for one aligned tile (and, for persistent grids, one tile and one program). This rewrites the
``regs_per_thread``, ``smem_bytes`` and ``ctas_per_sm`` columns from it; every other column,
the measurements and each persistent run's ``programs`` (what was launched) among them, stays
as measured. Running it again changes nothing.

    python3 docs/data/l2_checks/correct_resources.py
"""

import csv
import io
import json
from pathlib import Path

from swizzlekit.data import FOLDER

HERE = Path(__file__).parent
NOTE = ("regs_per_thread, smem_bytes and ctas_per_sm are those of the kernel each run launched "
        "(docs/data/l2_checks/kernel_resources.json, corrected 2026-11-23 by "
        "correct_resources.py); the sweep had recorded the kernel compiled for one aligned tile "
        "and one program")


def main():
    launches = json.loads((HERE / "kernel_resources.json").read_text())["launches"]
    own = {(r["M"], r["N"], r["K"], r["config"], r["dtype"], r["persistent"], r["programs"]): r
           for r in launches}
    for name in ("l2_sweep_h200", "l2_fresh_h200"):
        path = FOLDER / f"{name}.csv"
        rows = list(csv.DictReader(open(path)))
        changed = 0
        for row in rows:
            key = (int(row["M"]), int(row["N"]), int(row["K"]), row["config"], row["dtype"],
                   row["persistent"] == "True", int(row["programs"]))
            for col in ("regs_per_thread", "smem_bytes", "ctas_per_sm"):
                if row[col] != str(own[key][col]):
                    row[col], changed = str(own[key][col]), changed + 1
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(out.getvalue())
        meta_path = FOLDER / f"{name}.json"
        meta = json.loads(meta_path.read_text())
        meta["resources"] = NOTE
        meta_path.write_text(json.dumps(meta, indent=2))
        print(f"{path.name}: {changed} cells changed in {len(rows)} rows")


if __name__ == "__main__":
    main()
