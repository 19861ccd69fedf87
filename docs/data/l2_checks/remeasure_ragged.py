"""Put the ragged shapes' new measurements into the committed L2 tables.

Until 2026-11-23 the order-table kernel loaded a ragged K or N (3000x5000x4000,
5000x3000x1000, 6000x7000x3000: multiples of 8, not of 16) element by element, through
registers, and spilled (249-255 registers, up to 470 bytes a thread). Its L2 traffic then
held the spills' stores and loads beside the tiles', and the runs took 2-18x the time. The
launcher now tells Triton what it checked, that K, N and the row strides are multiples of 16
bytes (``table_gemm._hints``), and these launches compile the aligned kernel's loads, with no
spills. The three shapes' 78 runs were measured again on the H200 with

    swizzlekit lab l2-sweep --out DIR --shard 16/22            # 3000x5000x4000, fit half
    swizzlekit lab l2-sweep --out DIR --shard 17/22            # 5000x3000x1000, held out
    swizzlekit lab l2-sweep --out DIR --shard 2/8 --set fresh  # 6000x7000x3000, fresh set

(outputs in ``ragged_hinted/``). This replaces those rows of ``l2_sweep_h200.csv`` and
``l2_fresh_h200.csv`` with the new ones, and keeps the rows it replaces, the spilling kernel's,
in ``ragged_spilling_rows.csv``. Every other row stays as it was: an aligned launch compiles
the same PTX as before (checked for every tile config and element type of the tables, with
Triton 3.9 for sm_90). Running it again changes nothing.

    python3 docs/data/l2_checks/remeasure_ragged.py
"""

import csv
import io
import json
from pathlib import Path

from swizzlekit.data import FOLDER

HERE = Path(__file__).parent
NEW = {"l2_sweep_h200": ("sweep_shard16of22.csv", "sweep_shard17of22.csv"),
       "l2_fresh_h200": ("fresh_shard2of8.csv",)}
KEY = ("M", "N", "K", "config", "dtype", "order", "params", "persistent")
NOTE = ("the rows of 3000x5000x4000, 5000x3000x1000 and 6000x7000x3000 were measured again on "
        "2026-11-23 with the kernel's alignment hint (no spills); the spilling kernel's rows are "
        "in docs/data/l2_checks/ragged_spilling_rows.csv (remeasure_ragged.py)")


def _write(path: Path, rows: list[dict], fields: list[str]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\r\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue())


def main():
    kept = HERE / "ragged_spilling_rows.csv"
    spilled = list(csv.DictReader(open(kept))) if kept.exists() else []
    for name, files in NEW.items():
        path = FOLDER / f"{name}.csv"
        rows = list(csv.DictReader(open(path)))
        fields = list(rows[0])
        new = {tuple(r[k] for k in KEY): r for f in files
               for r in csv.DictReader(open(HERE / "ragged_hinted" / f))}
        replaced = 0
        for i, row in enumerate(rows):
            key = tuple(row[k] for k in KEY)
            if key in new and row != {k: new[key][k] for k in fields}:
                if not kept.exists():
                    spilled.append({"table": name, **row})
                rows[i] = {k: new[key][k] for k in fields}
                replaced += 1
        if sum(tuple(r[k] for k in KEY) in new for r in rows) != len(new):
            raise SystemExit(f"{name}: the new runs do not match the table's runs one to one")
        _write(path, rows, fields)
        meta_path = FOLDER / f"{name}.json"
        meta = json.loads(meta_path.read_text())
        meta["ragged"] = NOTE
        meta_path.write_text(json.dumps(meta, indent=2))
        print(f"{path.name}: {replaced} of {len(rows)} rows replaced")
    if not kept.exists():
        _write(kept, spilled, ["table", *fields])


if __name__ == "__main__":
    main()
