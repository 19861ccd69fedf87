"""A card's order tables from its three Williams passes (``retime.sh`` or ``h200_pass.sh``,
each pass in DIR/pass_a, pass_b, pass_c): each run's replicates of every pass pooled (3 x 9),
its median, least and greatest taken over all of them. No GPU; run from the repository root:

    python3 docs/data/order_times/pool.py docs/data/order_times/williams_h100_2026-11-27 h100
    python3 docs/data/order_times/pool.py docs/data/order_times/williams_h200_2026-11-27 h200

    python3 docs/data/order_times/pool.py docs/data/order_times/claims_h100_2026-11-28 h100 claims

writes src/swizzlekit/data/order_times_CARD.csv (sweep) and order_times_fresh_CARD.csv (or,
for the sets named, order_times_claims_CARD.csv), and their .json (the command, the
replicates, the cards).
"""
import dataclasses
import json
import statistics
import sys
from pathlib import Path

from swizzlekit.data import FOLDER
from swizzlekit.lab.records import OrderTimeRow, read_csv, write_csv

PASSES = ("pass_a", "pass_b", "pass_c")
CARDS = {"h100": "H100", "h200": "H200"}


def passes(folder: Path, name: str) -> list[list[OrderTimeRow]]:
    """Set ``name``'s table ("sweep", "fresh" or "claims") of every pass in ``folder``."""
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


def main(folder: str, card: str, sets: list[str]) -> None:
    tables_of = {"sweep": f"order_times_{card}.csv", "fresh": f"order_times_fresh_{card}.csv",
                 "claims": f"order_times_claims_{card}.csv"}
    if card not in CARDS or not Path(folder).is_dir() or not set(sets) <= set(tables_of):
        raise SystemExit(f"usage: pool.py DIR CARD [SET ...] (CARD one of {', '.join(CARDS)}; "
                         f"SET of {', '.join(tables_of)}, default sweep fresh; DIR holds "
                         f"{', '.join(PASSES)}); got {folder!r} {card!r} {sets!r}")
    folder = Path(folder)
    for name in sets:
        table = tables_of[name]
        tables = passes(folder, name)
        rows = pooled(tables)
        write_csv(FOLDER / table, rows)
        meta = json.loads((folder / PASSES[-1] / name / "order_times.json").read_text())
        cards = sorted({t[0].gpu_uuid for t in tables})
        meta.update(command=f"bash docs/data/order_times/retime.sh DIR {name} 0/1 9, "
                            f"{len(PASSES)} passes on {len(cards)} {CARDS[card]} card(s) "
                            f"(swizzlekit lab order-times --set {name} --replicates 9 each), "
                            f"pooled by docs/data/order_times/pool.py {folder.as_posix()} {card}",
                    replicates=len(rows[0].times_ms), turns="williams (swizzlekit.turns)",
                    cards=[t[0].gpu_uuid for t in tables])
        (FOLDER / table).with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
        print(f"{table}: {len(rows)} runs, {len(rows[0].times_ms)} replicates each")


if __name__ == "__main__":
    main(*sys.argv[1:3], sys.argv[3:] or ["sweep", "fresh"]) if len(sys.argv) >= 3 \
        else main("", "", [])
