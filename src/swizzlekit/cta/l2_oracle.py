"""The L2 model's oracle: :func:`swizzlekit.cta.l2.simulate` computed straight from its
definition, read by read, for small problems. The tests hold the two equal (with hypothesis,
over orders, tiles, residencies, program counts and every parameter).

>>> from swizzlekit.cta import order
>>> from swizzlekit.cta.l2 import simulate
>>> o = order("hilbert", 4, 4)
>>> simulate_naive(512, 512, 256, o, ways=0) == simulate(512, 512, 256, o, ways=0)  # exact
True
"""

from __future__ import annotations

import inspect

import numpy as np

from swizzlekit.cta.l2 import (L2Prediction, _extra_lookups, _out_bytes, _prediction,
                               check_problem, row_classes, settings)
from swizzlekit.cta.families import time_family
from swizzlekit.cta.schedule import _schedule, in_step
from swizzlekit.cta.reuse import hit_share
from swizzlekit.errors import SwizzleKitError

__all__ = ["simulate_naive"]

#: The settings the oracle hands on (every argument of :func:`swizzlekit.cta.l2.settings`).
_SETTINGS = set(inspect.signature(settings).parameters) - {"persistent"}


def simulate_naive(M: int, N: int, K: int, order: np.ndarray, *, tile=(128, 128, 64),
                   elem_bytes: int = 2, out_bytes: int | None = None,
                   row_bytes: tuple[int, int] | None = None, persistent: bool = False,
                   **model) -> L2Prediction:
    """The oracle, straight from the definition: every read of every step, and for each, the
    union of every tile its partition touched between its previous read and now, by brute force.
    ``model``: the rest of :func:`swizzlekit.cta.l2.simulate`'s settings (``gpu``,
    ``ctas_per_sm``, ``ways``, ...), handed to :func:`swizzlekit.cta.l2.settings` as the fast
    model hands them, so that the two run one model.

    A read hits by that union's bytes plus its own size against the partition's share of L2
    (:func:`swizzlekit.cta.reuse.hit_share`: with ``ways = 0`` an LRU at step granularity, the
    tiles of one step read together). The DRAM bytes, where the mirror is on (``mirror`` above
    0), come from the same walk through one L2 that every CTA reads (:func:`_mirror_naive`).
    Quadratic in the steps: for small problems only.
    """
    unknown = sorted(set(model) - _SETTINGS)
    if unknown:
        raise SwizzleKitError(f"simulate_naive takes no setting {unknown[0]!r}; valid: "
                              + ", ".join(sorted(_SETTINGS)))
    M, N, K, tile, order = check_problem(M, N, K, order, tile, elem_bytes)
    out_bytes = _out_bytes(out_bytes, elem_bytes)
    cfg = settings(persistent=persistent, **model)
    concurrent, partitions, l2_bytes = cfg["concurrent"], cfg["partitions"], cfg["l2_bytes"]
    # in a wave in step, a duplicate read behind a miss that reaches L2 may find it pending
    late = cfg["inflight"] * (1 - cfg["coalesce"])
    bm, bn, bk = tile
    launched = time_family(order, -(-M // bm), -(-N // bn), persistent)
    order, lane = _schedule(order, cfg, persistent)
    tk = -(-K // bk)
    size = {"a": bm * bk * elem_bytes, "b": bk * bn * elem_bytes}
    # bytes read per operand: rows that do not start on a sector are looked up more than once
    rows = row_classes(row_bytes, K, N, elem_bytes, cfg["sector_bytes"])
    read = {"a": 0, "b": 0}
    cap = l2_bytes / partitions
    history: list[list[set]] = [[] for _ in range(partitions)]   # per partition, per step
    last: list[dict] = [{} for _ in range(partitions)]           # key -> step of last read
    near_hits = near_total = fab_hits = fab_total = dup_bytes = 0.0
    n_waves = -(-len(order) // concurrent)
    dram = np.zeros(n_waves)
    written = [[0] * n_waves for _ in range(partitions)]         # C bytes, per wave
    for i in range(len(order)):
        written[lane[i]][i // concurrent] += bm * bn * out_bytes
    for w in range(n_waves):
        wave = order[w * concurrent:(w + 1) * concurrent]
        readers: dict = {}
        for i, (m, n) in enumerate(wave):
            for key in (("a", int(m)), ("b", int(n))):
                readers.setdefault(key, [0] * partitions)[lane[w * concurrent + i]] += 1
        for k in range(tk):
            step = w * tk + k
            for p in range(partitions):
                touched = set()
                for (kind, idx), by in readers.items():
                    if not by[p]:
                        continue
                    s, key = size[kind], (kind, idx, k)
                    touched.add(key)
                    near_total += by[p] * s * partitions
                    dup_bytes += (by[p] - 1) * s
                    read[kind] += by[p] * s
                    prev, hit = last[p].get(key), 0.0
                    if prev is not None:
                        between = set().union(*history[p][prev + 1:step]) - {key}
                        distance = sum(size[x[0]] for x in between) + s
                        # and the C tiles its CTAs wrote as they ended, from that wave on
                        distance += sum(written[p][prev // tk:w])
                        hit = float(hit_share(np.array([distance]), cap, cfg["ways"])[0])
                    miss = 1.0 - hit
                    near_hits += by[p] * s * partitions * hit
                    near_hits += (by[p] - 1) * s * partitions * miss * (
                        1 - in_step(w, cfg["ctas_per_sm"]) * late)
                    far = s * (partitions - 1) * miss
                    fab_total += far
                    if any(by[q] for q in range(partitions) if q != p):
                        fab_hits += far
                        dram[w] += s * miss
                    else:
                        dram[w] += s * partitions * miss
                history[p].append(touched)
                for key in touched:
                    last[p][key] = step
    if cfg["mirror"] > 0:                                         # DRAM bytes from the mirror
        c_bytes = [sum(col) for col in zip(*written)]
        dram = _mirror_naive(order, concurrent, tk, size, c_bytes, l2_bytes * cfg["mirror"],
                             cfg["mirror_ways"]) * partitions
    gone = cfg["coalesce"] * dup_bytes * partitions
    extra = _extra_lookups(cfg, rows, read["a"], read["b"])        # each a hit
    return _prediction(near_hits - gone + extra, near_total - gone + extra, fab_hits, fab_total,
                       dram, M * N * out_bytes, partitions,
                       (M, N, K, elem_bytes, model.get("gpu", "h200"), launched))


def _mirror_naive(order: np.ndarray, concurrent: int, tk: int, size: dict, written: list,
                  cap: float, ways: int) -> np.ndarray:
    """The mirror's DRAM bytes per wave by brute force: one L2 of ``cap`` bytes that every CTA
    reads through; each distinct tile a wave reads at step k misses by the union of every tile
    read between its previous read and now, its own size and the C bytes (``written``, per
    wave) written since that read's wave."""
    n_waves = -(-len(order) // concurrent)
    dram = np.zeros(n_waves)
    history: list[set] = []                                     # per step: the tiles read
    last: dict = {}
    for w in range(n_waves):
        wave = order[w * concurrent:(w + 1) * concurrent]
        keys = {("a", int(m)) for m in wave[:, 0]} | {("b", int(n)) for n in wave[:, 1]}
        for k in range(tk):
            step = w * tk + k
            touched = {(kind, idx, k) for kind, idx in keys}
            for key in touched:
                prev, hit = last.get(key), 0.0
                if prev is not None:
                    between = set().union(*history[prev + 1:step]) - {key}
                    distance = sum(size[x[0]] for x in between) + size[key[0]]
                    distance += sum(written[prev // tk:w])
                    hit = float(hit_share(np.array([distance]), cap, ways)[0])
                dram[w] += size[key[0]] * (1.0 - hit)
            history.append(touched)
            for key in touched:
                last[key] = step
    return dram

