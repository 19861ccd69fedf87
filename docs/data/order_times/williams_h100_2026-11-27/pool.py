"""The H100's order tables from its three Williams passes (three cards, one lease each): each
run's replicates of every pass pooled (3 x 9), its median, least and greatest taken over all
of them. No GPU; run from the repository root:

    python3 docs/data/order_times/williams_h100_2026-11-27/pool.py

writes src/swizzlekit/data/order_times_h100.csv (sweep) and order_times_fresh_h100.csv, and
their .json (the command, the replicates, the cards).
"""
import dataclasses
import json
import statistics
from pathlib import Path

from swizzlekit.data import path
from swizzlekit.lab.records import OrderTimeRow, read_csv, write_csv

HERE = Path(__file__).parent
PASSES = ("pass_a", "pass_b", "pass_c")
TABLES = {"sweep": "order_times_h100.csv", "fresh": "order_times_fresh_h100.csv"}


def passes(name: str) -> list[list[OrderTimeRow]]:
    """Set ``name``'s table ("sweep" or "fresh") of every pass."""
    return [read_csv(HERE / p / name / "order_times.csv", OrderTimeRow) for p in PASSES]


def pooled(tables: list[list[OrderTimeRow]]) -> list[OrderTimeRow]:
    """The first table's rows, in its order, with the other tables' replicates of the same run
    added; every table must hold the same runs."""
    keyed = [{r.key(): r for r in t} for t in tables]
    if any(set(k) != set(keyed[0]) for k in keyed):
        raise SystemExit("the passes hold different runs")
    out = []
    for r in tables[0]:
        same = [k[r.key()] for k in keyed]
        times = [t for s in same for t in s.times_ms]
        out.append(dataclasses.replace(
            r, ms=statistics.median(times), ms_min=min(times), ms_max=max(times),
            replicates=";".join(f"{t:.5f}" for t in times),
            gpu_uuid=";".join(s.gpu_uuid for s in same)))
    return out


if __name__ == "__main__":
    where = HERE.as_posix()[HERE.as_posix().index("docs/"):]
    for name, table in TABLES.items():
        tables = passes(name)
        rows = pooled(tables)
        write_csv(path(table), rows)
        meta = json.loads((HERE / PASSES[-1] / name / "order_times.json").read_text())
        meta.update(command=f"bash docs/data/order_times/retime.sh DIR {name} 0/1 9 on "
                            f"{len(PASSES)} H100s (swizzlekit lab order-times --set {name} "
                            f"--replicates 9 each), pooled by {where}/pool.py",
                    replicates=len(rows[0].times_ms), turns="williams (swizzlekit.turns)",
                    cards=[t[0].gpu_uuid for t in tables])
        path(table).with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
        print(f"{table}: {len(rows)} runs, {len(rows[0].times_ms)} replicates each")
