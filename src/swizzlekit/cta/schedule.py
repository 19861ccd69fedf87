"""Where and when the L2 model's CTAs run: the L2 partition each one runs beside
(:func:`lanes`), the order a persistent grid's tiles run in (:func:`run_order`), and which
waves run in step (:func:`in_step`). :mod:`swizzlekit.cta.l2` and its oracle share these, so
that the two schedule every problem alike.

>>> run_order(6, 3, 3).tolist(), in_step(np.arange(2), 1).tolist()
([0, 1, 2, 3, 4, 5], [True, True])
"""

from __future__ import annotations

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_choice, check_int, check_number
from swizzlekit.gpus import GPUS

__all__ = ["DISPATCH", "LANE_SEED", "DRIFT_SEED", "MAX_CTAS", "lanes", "in_step", "run_order"]

#: How CTAs land on the L2's partitions (:func:`lanes`): a seeded coin (fitted model), or the
#: SM order and SM sides measured on the GPU (``swizzlekit lab dispatch``).
DISPATCH = ("coin", "measured")
#: The most CTAs (or slots, or programs) a schedule is made for: 2^24, past any grid the
#: L2 model answers (2^16 tiles).
MAX_CTAS = 2**24
#: The seed of the CTA-to-partition coin (see :func:`lanes`).
LANE_SEED = 0x5EED
#: The seed of a persistent grid's tile durations (:func:`run_order`): a stream of its own,
#: so that a program's durations do not follow from its coin.
DRIFT_SEED = (LANE_SEED, 1)


def lanes(ctas: int, partitions: int, programs: int | None = None, *, dispatch: str = "coin",
          gpu: str = "h200", ctas_per_sm: int = 1) -> np.ndarray:
    """The L2 partition each CTA runs beside.

    ``dispatch="coin"`` (the fitted model): a seeded fair coin per CTA, or per program of a
    persistent grid of ``programs``, which stays on its SM.

    ``dispatch="measured"`` (two partitions, a GPU whose dispatch was measured): the first wave
    (``sms x ctas_per_sm`` CTAs) takes the SMs in the preset's measured ``dispatch_order``,
    cycling, so runs of consecutive CTAs share a side as on the H200; a persistent program
    keeps its first SM. After the first wave a CTA takes whichever slot frees first: with one
    CTA per SM the slots free in the first wave's order, so the cycle continues; with more,
    the measured sides of later CTAs are uncorrelated, and the coin decides (docs/cta.md).

    >>> lanes(6, 2).tolist() == lanes(6, 2).tolist()          # the same every call
    True
    >>> lanes(12, 2, dispatch="measured").tolist()            # SMs 124-131, 0, 1, 16, 17
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    """
    from swizzlekit.gpus import gpu as preset

    ctas = check_int("ctas", ctas, 1, MAX_CTAS)
    partitions = check_int("partitions", partitions, 1, 16)
    if programs is not None:
        programs = check_int("programs", programs, 1, MAX_CTAS)
    check_choice("dispatch", dispatch, DISPATCH)
    ctas_per_sm = check_int("ctas_per_sm", ctas_per_sm, 1, 64)
    g = preset(gpu)
    coin = np.random.default_rng(LANE_SEED).integers(0, partitions, programs or ctas)
    coin = coin[np.arange(ctas) % programs] if programs else coin
    if dispatch == "coin" or partitions != 2:
        return coin
    side, i = _measured_sides(g), np.arange(ctas)
    if programs:
        return side[(i % programs) % g.sms]
    first = i < g.sms * ctas_per_sm
    return np.where(first | (ctas_per_sm == 1), side[i % g.sms], coin)


def in_step(wave, ctas_per_sm: int):
    """Whether the CTAs of ``wave`` (an index or an array of them) run in step: the first
    wave's start together, and with one CTA per SM every wave keeps the first one's pace
    (durations within 5% on the H200; with 2-4 per SM they spread by -27%/+14%, docs/cta.md).

    >>> in_step(np.arange(3), 2).tolist(), in_step(np.arange(3), 1).tolist()
    ([True, False, False], [True, True, True])
    """
    ctas_per_sm = check_int("ctas_per_sm", ctas_per_sm, 1, 64)
    try:
        waves = np.asarray(wave)
    except ValueError:
        raise SwizzleKitError(f"wave must be a wave index or an array of them; got {wave!r}") \
            from None
    if not np.issubdtype(waves.dtype, np.integer) or (waves < 0).any():
        raise SwizzleKitError(f"wave must be a wave index (an integer >= 0) or an array of "
                              f"them; got {wave!r}")
    return (waves == 0) | (ctas_per_sm == 1)


def run_order(slots: int, programs: int, resident: int, spread: float = 0.0) -> np.ndarray:
    """The order in which a persistent grid's ``slots`` run: program ``p`` walks the slots
    ``p, p + programs, ...``. A grid of more programs than fit at once runs them in batches of
    ``resident``, each starting as the one before ends (the programs' work is alike, so they
    end together), each batch round by round.

    A grid whose programs all fit drifts: each tile takes ``1 + spread * z`` of a round (``z``
    a seeded standard normal, at least 0.05 in all), and the tiles run in the order they
    start, so a program that drew short tiles runs ahead of its round (``spread``: the spread
    of CTA durations, :func:`swizzlekit.cta.l2.settings`). A CTA of a launch of one CTA per
    tile does not drift: the next one starts, in launch order, where a slot frees.

    >>> run_order(8, 4, 4).tolist()                 # all resident: launch order
    [0, 1, 2, 3, 4, 5, 6, 7]
    >>> run_order(8, 4, 2).tolist()                 # programs 0, 1 walk first, then 2, 3
    [0, 1, 4, 5, 2, 3, 6, 7]
    >>> run_order(12, 4, 4, spread=0.3).tolist()    # from the second round on, out of step
    [0, 1, 2, 3, 4, 6, 7, 5, 8, 10, 11, 9]
    """
    slot = np.arange(check_int("slots", slots, 1, MAX_CTAS))
    programs = check_int("programs", programs, 1, MAX_CTAS)
    resident = check_int("resident", resident, 1, MAX_CTAS)
    spread = check_number("spread", spread, 0, 1)
    program, rnd = slot % programs, slot // programs
    if programs > resident or spread == 0:
        return np.lexsort((program, rnd, program // resident))
    rng = np.random.default_rng(DRIFT_SEED)
    took = np.maximum(1 + spread * rng.standard_normal((programs, rnd[-1] + 1)), 0.05)
    start = np.zeros_like(took)                       # when each program starts each round
    start[:, 1:] = np.cumsum(took[:, :-1], axis=1)
    return np.lexsort((slot, start[program, rnd]))


def _measured_sides(g) -> np.ndarray:
    """The L2 side of each SM of preset ``g`` in its first-wave dispatch order."""
    if not g.l2_side_of_sm:
        raise SwizzleKitError(f"dispatch='measured' needs the measured L2 sides of {g.name}'s "
                              f"SMs; measured for: "
                              + ", ".join(k for k, v in GPUS.items() if v.l2_side_of_sm))
    return np.array([int(x) for x in g.l2_side_of_sm])[list(g.dispatch_order)]


def _lanes(ctas: int, s: dict, persistent: bool) -> np.ndarray:
    return lanes(ctas, s["partitions"], s["programs"] if persistent else None,
                 dispatch=s["dispatch"], gpu=s["gpu"], ctas_per_sm=s["ctas_per_sm"])


def _schedule(order: np.ndarray, s: dict, persistent: bool):
    """The tiles in the order they run (:func:`run_order`), and each one's partition."""
    lane = _lanes(len(order), s, persistent)
    if persistent:
        run = run_order(len(order), s["programs"], s["resident"], s["duration_spread"])
        return order[run], lane[run]
    return order, lane
