"""The L2 model's settings (:mod:`swizzlekit.cta.l2`): the sizes it answers, its parameters
fitted on the H200's fit half, its held-out figures on both cards, and :func:`settings`, which
resolves them for one kernel on one GPU preset. Numpy-free; :mod:`swizzlekit.cta.l2`
re-exports every name.
"""

from __future__ import annotations

from swizzlekit.cta.schedule import DISPATCH, _measured_sides
from swizzlekit.errors import SwizzleKitError, check_bool, check_choice, check_int, check_number

__all__ = ["ELEM_BYTES", "MAX_TILES", "MAX_TILE_STEPS", "MAX_TILE_SIDE", "MAX_WAVES", "FITTED",
           "MAX_UNALIGNED_LOOKUPS", "MAX_WAYS", "HELDOUT", "FRESH", "RAGGED_CHECK",
           "HELDOUT_BY_DISPATCH", "HELDOUT_BY_GPU", "settings"]

#: Element widths the model takes: fp8, fp16/bf16, fp32/tf32, fp64.
ELEM_BYTES = (1, 2, 4, 8)
#: The largest problem :func:`.l2.simulate` answers: tiles in the grid, and tiles times K steps.
#: 32768 x 32768 x 8192 in 128x128x64 tiles (65536 tiles, 128 steps) takes about 0.7 s on one
#: core; the cost grows with both.
MAX_TILES = 2**16
MAX_TILE_STEPS = 2**24
#: The longest tile side :func:`.l2.simulate` takes: a CTA's tile is at most a few hundred
#: elements a side (its operands sit in shared memory); past this the model's byte counts
#: would leave 64-bit integers.
MAX_TILE_SIDE = 4096
#: The most waves :func:`.l2.simulate` answers (its tables are waves x waves): 65,536 tiles in
#: waves of 32 CTAs or more. The H200's own wave (132) reaches it only past 270,000 tiles.
MAX_WAVES = 2048


#: Free parameters fitted on the fit half of the H200 sweep (``python -m swizzlekit.compare
#: --fit``, which chooses by :func:`swizzlekit.compare.chosen`; docs/cta.md): the wave is
#: ``sms * ctas_per_sm ** window_exponent`` CTAs, ``coalesce`` of the same-wave duplicate
#: reads of a partition merge before reaching L2, each partition has ``ways`` ways (0: a
#: fully associative LRU), and in a wave in step (:func:`.l2.in_step`) ``inflight`` of the
#: duplicate reads behind a miss that reach L2 arrive while it is pending, and count as misses.
#: ``unaligned_lookups`` (chosen in a second stage, the others held) is the lookups per sector
#: of an operand whose rows are every other one half a sector off, and ``skewed_lookups``
#: (chosen on ragged runs in neither half: the "fit" runs of
#: :data:`swizzlekit.compare.RAGGED_TABLE`) that of rows off by other amounts
#: (:func:`.l2.row_classes`). ``mirror`` and ``mirror_ways`` (a fourth stage, the others held:
#: :func:`swizzlekit.compare.fit_mirror`) are the share of the preset's L2 bytes and the ways
#: of the one L2 whose misses are the DRAM bytes (0: the partitions' misses).
FITTED = {"window_exponent": 0.0, "coalesce": 0.0, "ways": 8, "inflight": 0.1,
          "unaligned_lookups": 2.5, "skewed_lookups": 1.5, "mirror": 0.6, "mirror_ways": 16}
#: The most lookups per sector ``unaligned_lookups`` and ``skewed_lookups`` may say.
MAX_UNALIGNED_LOOKUPS = 8.0
#: The largest ``ways`` the model takes (:func:`swizzlekit.cta.reuse.hit_share`).
MAX_WAYS = 64
#: The model's error on the held-out half of the H200 sweep with :data:`FITTED` (``python -m
#: swizzlekit.compare --heldout``; a test holds these equal to a fresh computation).
HELDOUT = {"hit_mean": 2.94, "hit_worst": 21.9, "dram_median_pct": 3.8}
#: Its error on the fresh set (eight shapes in neither half, measured on the H200 once after
#: :data:`FITTED` was chosen; :data:`swizzlekit.compare.FRESH_TABLE`), held by a test too.
FRESH = {"hit_mean": 2.7, "hit_worst": 19.0, "dram_median_pct": 5.1}
#: Its error on the ragged check runs (:data:`swizzlekit.compare.RAGGED_TABLE`, "check": rows
#: off the sector in every way, measured before ``skewed_lookups`` was fitted), held by a test.
RAGGED_CHECK = {"hit_mean": 2.2, "hit_worst": 12.9, "dram_median_pct": 7.1}
#: The held-out error under each dispatch (``python -m swizzlekit.compare --heldout
#: [--dispatch measured]``; a test holds both equal to a fresh computation).
HELDOUT_BY_DISPATCH = {"coin": HELDOUT,
                       "measured": {"hit_mean": 2.86, "hit_worst": 22.0, "dram_median_pct": 3.8}}
#: The model's error per card (``python -m swizzlekit.compare --heldout [--gpu h100-sxm]
#: [--dispatch measured]``; a test holds these equal to a fresh computation): the H200's
#: (:data:`HELDOUT`, :data:`FRESH`, :data:`HELDOUT_BY_DISPATCH`), and the H100's on its own
#: preset, on the same problems and orders measured on three H100 cards (2026-11-27; no
#: persistent grids; never fitted on), with its own measured dispatch (the same SM sides
#: and first-wave order as the H200's, docs/data/dispatch/h100/) under "measured".
HELDOUT_BY_GPU = {"h200": {"heldout": HELDOUT, "fresh": FRESH,
                           "measured": HELDOUT_BY_DISPATCH["measured"]},
                  "h100-sxm": {"heldout": {"hit_mean": 2.68, "hit_worst": 23.2,
                                           "dram_median_pct": 3.2},
                               "fresh": {"hit_mean": 2.53, "hit_worst": 15.8,
                                         "dram_median_pct": 5.1},
                               "measured": {"hit_mean": 2.56, "hit_worst": 23.2,
                                            "dram_median_pct": 3.2}}}


def settings(gpu: str = "h200", ctas_per_sm: int = 1, *, persistent: bool = False,
             l2_bytes: int | None = None, concurrent: int | None = None,
             partitions: int | None = None, coalesce: float | None = None,
             window_exponent: float | None = None, dispatch: str = "coin",
             ways: int | None = None, inflight: float | None = None,
             programs: int | None = None, unaligned_lookups: float | None = None,
             skewed_lookups: float | None = None, duration_spread: float | None = None,
             mirror: float | None = None, mirror_ways: int | None = None) -> dict:
    """The model's settings for a kernel of residency ``ctas_per_sm`` on preset ``gpu``.
    ``programs``: a persistent grid's program count (default: as many as are resident at
    once, the SMs times ``ctas_per_sm``).

    >>> s = settings("h200", 2)
    >>> s["programs"], s["resident"], s["partitions"], s["l2_bytes"] // 2**20
    (264, 264, 2, 60)
    """
    from swizzlekit.gpus import gpu as preset

    g = preset(gpu)
    ctas_per_sm = check_int("ctas_per_sm", ctas_per_sm, 1, g.max_blocks_per_sm)
    check_bool("persistent", persistent)
    if programs is not None:
        if not persistent:
            raise SwizzleKitError("programs is a persistent grid's program count; give it "
                                  "with persistent=True (--persistent), or leave it out")
        programs = check_int("programs", programs, 1, MAX_TILES)
    fitted = {"coalesce": coalesce, "window_exponent": window_exponent, "inflight": inflight,
              "mirror": mirror}
    fitted = {name: check_number(name, FITTED[name] if v is None else v, 0, 1)
              for name, v in fitted.items()}
    q = fitted["coalesce"]
    lookups = {"unaligned_lookups": unaligned_lookups, "skewed_lookups": skewed_lookups}
    lookups = {name: check_number(name, FITTED[name] if v is None else v, 1,
                                  MAX_UNALIGNED_LOOKUPS) for name, v in lookups.items()}
    if duration_spread is None:         # measured on the preset: one CTA per SM, or more
        duration_spread = g.cta_duration_cv[ctas_per_sm > 1]
    duration_spread = check_number("duration_spread", duration_spread, 0, 1)
    ways = check_int("ways", FITTED["ways"] if ways is None else ways, 0, MAX_WAYS)
    mirror_ways = check_int("mirror_ways", FITTED["mirror_ways"] if mirror_ways is None
                            else mirror_ways, 0, MAX_WAYS)
    check_choice("dispatch", dispatch, DISPATCH)
    if dispatch == "measured":
        _measured_sides(g)
    wave = round(g.sms * ctas_per_sm ** fitted["window_exponent"])
    return {"programs": g.sms * ctas_per_sm if programs is None else programs,
            "resident": g.sms * ctas_per_sm,
            "concurrent": (wave if concurrent is None
                           else check_int("concurrent", concurrent, 1, MAX_TILES)),
            "partitions": (g.l2_partitions if partitions is None
                           else check_int("partitions", partitions, 1, 16)),
            "l2_bytes": (g.l2_bytes if l2_bytes is None       # an L2 of at most 1 GiB
                         else check_int("l2_bytes", l2_bytes, 1, 2**30)),
            "coalesce": float(q), "ways": ways, "inflight": fitted["inflight"],
            "mirror": fitted["mirror"], "mirror_ways": mirror_ways,
            "dispatch": dispatch, "gpu": gpu, **lookups,
            "duration_spread": duration_spread,
            "sector_bytes": g.l2_sector_bytes, "ctas_per_sm": ctas_per_sm}
