"""A card's order tables from its three Williams passes (``retime.sh`` or ``h200_pass.sh``,
each pass in DIR/pass_a, pass_b, pass_c): each run's replicates of every pass pooled (3 x 9),
its median, least and greatest taken over all of them. No GPU; run from the repository root:

    python3 docs/data/order_times/pool.py docs/data/order_times/williams_h100_2026-11-27 h100
    python3 docs/data/order_times/pool.py docs/data/order_times/williams_h200_2026-11-27 h200

writes src/swizzlekit/data/order_times_CARD.csv (sweep) and order_times_fresh_CARD.csv, and
their .json (the command, the replicates, the cards).
"""
import dataclasses
import json
import statistics
import sys
from pathlib import Path

from swizzlekit.data import path
from swizzlekit.lab.records import OrderTimeRow, read_csv, write_csv

PASSES = ("pass_a", "pass_b", "pass_c")
CARDS = {"h100": "H100", "h200": "H200"}


def passes(folder: Path, name: str) -> list[list[OrderTimeRow]]:
    """Set ``name``'s table ("sweep" or "fresh") of every pass in ``folder``."""
    return [read_csv(folder / p / name / "order_times.csv", OrderTimeRow) for p in PASSES]


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


def main(folder: str, card: str) -> None:
    if card not in CARDS or not Path(folder).is_dir():
        raise SystemExit(f"usage: pool.py DIR CARD (CARD one of {', '.join(CARDS)}; DIR holds "
                         f"{', '.join(PASSES)}); got {folder!r} {card!r}")
    folder = Path(folder)
    names = {"sweep": f"order_times_{card}.csv", "fresh": f"order_times_fresh_{card}.csv"}
    for name, table in names.items():
        tables = passes(folder, name)
        rows = pooled(tables)
        write_csv(path(table), rows)
        meta = json.loads((folder / PASSES[-1] / name / "order_times.json").read_text())
        cards = sorted({t[0].gpu_uuid for t in tables})
        meta.update(command=f"bash docs/data/order_times/retime.sh DIR {name} 0/1 9, "
                            f"{len(PASSES)} passes on {len(cards)} {CARDS[card]} card(s) "
                            f"(swizzlekit lab order-times --set {name} --replicates 9 each), "
                            f"pooled by docs/data/order_times/pool.py {folder.as_posix()} {card}",
                    replicates=len(rows[0].times_ms), turns="williams (swizzlekit.turns)",
                    cards=[t[0].gpu_uuid for t in tables])
        path(table).with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
        print(f"{table}: {len(rows)} runs, {len(rows[0].times_ms)} replicates each")


if __name__ == "__main__":
    main(*sys.argv[1:3]) if len(sys.argv) == 3 else main("", "")
