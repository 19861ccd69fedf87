"""One L2 of part of the preset's size, every read in it ("mirror"): the short-K ranking, and
the time model refitted on it.

Section 6 of JOURNAL.md: at 16384x16384x512 in 64x64 tiles, four CTAs an SM, ncu reads
59-77 MB under the row, column and snake orders and 258-283 MB under grouped(8), grouped(16)
and strip(8), the model as shipped the other way round. Here the L2 is one partition of a
share of the preset's bytes, which every CTA's reads fill, as if each of the two partitions
kept its own copy of what either side reads (``partitions=1``, ``l2_bytes``, ``ways``).

1. That ranking under the shipped model and under the mirror at 0.5-0.7 of the L2.
2. The time model (``compare_time.fit``) refitted on each mirror's DRAM bytes per card, with
   its fit-half loss (the mean error of relative times, what the fit minimizes), then the pick
   within 2% and the worst error on the fit half, the held-out half and the fresh set.
3. DRAM bytes against ncu over each card's L2 sweep (non-random orders, fit and held-out
   halves): the shipped model against the mirror at 0.6 and 0.7 of the L2, 16 ways.

No GPU; about 4 minutes on two cores. ``mirror.txt`` was computed before the model took its
DRAM bytes from a mirror (JOURNAL.md section 8): "shipped" and "model" there are the
partitions' bytes, which ``mirror=0`` now gives.

    python3 docs/data/l2_checks/mirror.py > docs/data/l2_checks/mirror.txt
"""
import functools
import json

from swizzlekit import compare as c
from swizzlekit import compare_time as ct
from swizzlekit.cta.l2 import simulate
from swizzlekit.gpus import gpu
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, OUT_BYTES, row_bytes, sweep_order
from swizzlekit.lab.records import L2SweepRow, read_csv

SHARES, WAYS = (0.5, 0.6, 0.7), (8, 16, 32)
SHIPPED = ct._runs


def short_k() -> None:
    size = gpu("h200").l2_bytes
    rows = [r for r in read_csv(c.SWEEP_TABLE, L2SweepRow) if r.split == "fit"
            and r.shape == (16384, 16384, 512) and r.config.startswith("64x64")
            and r.order != "random" and not r.persistent]
    variants = [("model", {"gpu": "h200"})] + [
        (f"{s} w{w}", {"gpu": "h200", "partitions": 1, "l2_bytes": int(size * s), "ways": w})
        for s in SHARES for w in (0, 16)]
    got = [c.predict(rows, v) for _, v in variants]
    print("16384x16384x512, 64x64x64 fp16, 4 CTAs an SM, H200 fit half: DRAM read MB "
          "(mirror: share of the L2, ways; w0 a fully associative LRU)")
    print(f"{'order':34s} {'ncu':>5s} " + " ".join(f"{n:>8s}" for n, _ in variants))
    for i, r in enumerate(got[0]):
        name = r["order"] + (f" {json.dumps(r['params'])}" if r["params"] else "")
        print(f"{name:34s} {r['measured_dram'] / 1e6:5.0f} "
              + " ".join(f"{g[i]['model_dram'] / 1e6:8.0f}" for g in got))


def mirrored(share: float, ways: int):
    @functools.lru_cache(maxsize=None)
    def runs(card: str, part: str) -> tuple:
        size = gpu(ct.CARDS[card]).l2_bytes
        out = []
        for r, _ in SHIPPED(card, part):
            bm, bn, _ = r.tile
            o = sweep_order(r.order, -(-r.M // bm), -(-r.N // bn), r.params_dict)
            out.append((r, simulate(r.M, r.N, r.K, o, tile=r.tile,
                                    elem_bytes=ELEM_BYTES[r.dtype], out_bytes=OUT_BYTES[r.dtype],
                                    ctas_per_sm=r.ctas_per_sm,
                                    row_bytes=row_bytes(r.N, r.K, r.dtype), gpu=ct.CARDS[card],
                                    partitions=1, l2_bytes=int(size * share), ways=ways)))
        return tuple(out)
    return runs


def refits() -> None:
    print("\nthe time model refitted per card: fit loss (%), then pick within 2% / worst "
          "error (%) on the fit half, held out, fresh")
    for name, runs in [("shipped", SHIPPED)] + [(f"{s} w{w}", mirrored(s, w))
                                                for s in SHARES for w in WAYS]:
        ct._runs = runs
        cells = []
        for card in ct.CARDS:
            par = ct.fit(card)
            loss = ct._rel_loss(card, ct._problems(ct.runs(card, "fit")), par)
            j = [ct.judge(card, part, parameters=par) for part in ct.PARTS]
            cells.append(f"{card} {100 * loss:.2f} " + " ".join(
                f"{x['pick_within_2pct']:.2f}/{x['rel_err_worst_pct']:4.1f}" for x in j))
        print(f"{name:8s} " + "  |  ".join(cells), flush=True)
    ct._runs = SHIPPED


def dram() -> None:
    import numpy as np

    print("\nDRAM bytes against ncu, each card's sweep, non-random orders: |model/ncu - 1| (%)")
    for card in c.CARD_TABLES:
        size = gpu(card).l2_bytes
        for name, kw in [("shipped", {})] + [
                (f"mirror {s} w16", {"partitions": 1, "l2_bytes": int(size * s), "ways": 16})
                for s in (0.6, 0.7)]:
            cells = []
            for part in ("fit", "heldout"):
                rows = [r for r in c.compare_sweep(part, path=c.CARD_TABLES[card][0], gpu=card,
                                                   **kw) if r["order"] != "random"]
                d = np.array([abs(r["model_dram"] / r["measured_dram"] - 1) for r in rows]) * 100
                cells.append(f"{part} median {np.median(d):4.1f} p90 {np.percentile(d, 90):4.1f} "
                             f"worst {d.max():3.0f}")
            print(f"{card:8s} {name:15s} " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    short_k()
    refits()
    dram()
