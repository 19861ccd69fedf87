"""Plan stage: the GEMMs' default CTA order (``order="auto"``): the time model's pick for the
shape.

For a call of M x N x K, :func:`pick` takes the tile config the config model ranks first
(:mod:`~swizzlekit.kernels.triton.choose`) with that config's residency, asks the L2 model
(:func:`swizzlekit.cta.l2.simulate`) for the predicted time of every order in
:data:`CANDIDATES` (its ``time_s``, :mod:`swizzlekit.cta.timing`), and keeps the default
order, grouped(16) (:data:`swizzlekit.cta.rank.DEFAULT_ORDER`), unless another candidate is
predicted faster by more than the GPU's noise band
(:data:`swizzlekit.cta.timing.ORDER_NOISE_PCT`), where :func:`swizzlekit.cta.rank.verdict`
says that the default lies within the band of the fastest (and names the predicted fastest;
``default_within_band``): on this GEMM the two
rules tie (docs/data/bench/order_tiebreak/rules.py, H100: 78 and 79 of 95 shape runs within
2% of the fastest). It also keeps the default, without asking the model, where A, B and C
together fit in half the L2 (no order re-reads anything there), and where the grid is too
large to rank within :data:`MAX_TILE_STEPS`.

Timed on the H100 (docs/data/bench/order_tiebreak/, 19 shapes of M*N*K >= 2^35 in 5
interleaved replicates, two passes each of bf16 and fp8), grouped(16) ran within 2% of the
fastest of row, column, grouped(8) and grouped(16) at 61 of the 76 shape-passes, grouped(8),
Triton's tutorial order and this module's default before, at 57: level within the noise.
The row and column orders ran up to 39% behind.

The candidates are the grouped orders, along M and along N, in groups of 4, 8 and 16: on
the H200's order-table measurements (docs/data/l2_checks/JOURNAL.md) they were never more than a few percent
apart in time, where row, column and snake orders ran up to 26% slower. Picks are cached
per problem, so only a shape's first call runs the model (0.01-0.11 s on a 2-core machine;
the most at 16384³).

>>> pick(1024, 1024, 1024, "16bit", "tma", ("128x256x64/s3/w8",), 2, 2, gpu_name="h200").reason
'A, B and C fit in half the L2: the order re-reads nothing from DRAM'
>>> p = pick(16384, 16384, 2048, "16bit", "tma", ("128x256x64/s3/w8",), 2, 2, gpu_name="h200")
>>> p.order, p.params, "noise band" in p.reason
('grouped', {'group': 16, 'along': 'm'}, True)
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from swizzlekit.cta.rank import DEFAULT_ORDER
from swizzlekit.errors import SwizzleKitError

__all__ = ["AUTO", "CANDIDATES", "DEFAULT", "MAX_TILE_STEPS", "Pick", "pick"]

#: The ``order`` value that asks for the model's pick (the GEMMs' default).
AUTO = "auto"
#: The order kept unless the model sees a clear gain (the ranking's default order).
DEFAULT = DEFAULT_ORDER
#: The orders the pick chooses among.
CANDIDATES = tuple(("grouped", {"group": g, "along": a}) for g in (4, 8, 16) for a in "mn")
#: Tiles x K steps beyond which the pick keeps :data:`DEFAULT` without simulating (each
#: candidate costs about 1 us per tile-step: 2^22 is 16384³ in 128x128x64 tiles).
MAX_TILE_STEPS = 2**22


class Pick(NamedTuple):
    """The order a call runs (``order``, ``params``), the config the model sized it for, the
    predicted DRAM bytes of the pick and of the default order (0 when not simulated), why,
    and the predicted times of the pick and of the default (0 when not simulated)."""
    order: str
    params: dict
    config: str
    dram_bytes: int
    default_dram_bytes: int
    reason: str
    time_s: float = 0.0
    default_time_s: float = 0.0


def pick(M: int, N: int, K: int, fam: str, kernel: str, configs: tuple[str, ...],
         elem_bytes: int, out_bytes: int, persistent: bool = False,
         gpu_name: str | None = None) -> Pick:
    """The order for an M x N x K call of ``kernel`` (pointer, tma, fp8_pointer, fp8_tma) on
    operands of family ``fam`` (:func:`~swizzlekit.kernels.triton.choose.family`), whose
    autotuner keeps ``configs`` (labels ``BMxBNxBK/sS/wW[/swap]``, at least one), on preset
    ``gpu_name`` (default: the card this process runs on,
    :func:`~swizzlekit.kernels.triton.device.current_gpu`)."""
    from swizzlekit.kernels.triton.device import current_gpu

    return _pick(M, N, K, fam, kernel, tuple(configs), elem_bytes, out_bytes, persistent,
                 gpu_name or current_gpu())


@functools.lru_cache(maxsize=1024)
def _pick(M: int, N: int, K: int, fam: str, kernel: str, configs: tuple[str, ...],
          elem_bytes: int, out_bytes: int, persistent: bool, gpu_name: str) -> Pick:
    from swizzlekit.cta.l2 import simulate
    from swizzlekit.cta.orders import order
    from swizzlekit.cta.timing import ORDER_NOISE_PCT, time_parameters
    from swizzlekit.gpus import gpu
    from swizzlekit.kernels.triton import choose

    if min(M, N, K) < 1 or not configs:
        raise SwizzleKitError(f"pick needs M, N, K >= 1 and at least one config; got "
                              f"{M}x{N}x{K} and {len(configs)} configs")
    g = gpu(gpu_name)
    config = min(configs, key=lambda c: choose.predict(M, N, K, fam, kernel, c,
                                                       gpu_name=gpu_name))
    footprint = (M * K + K * N) * elem_bytes + M * N * out_bytes
    if 2 * footprint <= g.l2_bytes:
        return Pick(*DEFAULT, config, 0, 0,
                    "A, B and C fit in half the L2: the order re-reads nothing from DRAM")
    bm, bn, bk, stages, warps, _ = choose._parse(config)
    tm, tn, tk = -(-M // bm), -(-N // bn), -(-K // bk)
    if tm * tn * tk > MAX_TILE_STEPS:
        return Pick(*DEFAULT, config, 0, 0,
                    f"{tm * tn * tk} tile-steps: more than the {MAX_TILE_STEPS} the pick "
                    f"simulates on a call")
    ctas = choose._residency(bm, bn, bk, stages, warps, elem_bytes, out_bytes, gpu_name)
    pred = {}
    for name, params in CANDIDATES:
        pred[(params["group"], params["along"])] = simulate(
            M, N, K, order(name, tm, tn, **params), tile=(bm, bn, bk), elem_bytes=elem_bytes,
            out_bytes=out_bytes, gpu=gpu_name, ctas_per_sm=ctas, persistent=persistent)
    key = (DEFAULT[1]["group"], DEFAULT[1]["along"])
    base = pred[key]
    (group, along), best = min(pred.items(),
                               key=lambda kv: (kv[1].time_s, kv[1].dram_read_bytes,
                                               kv[0] != key))
    band = ORDER_NOISE_PCT[time_parameters(gpu_name)["fitted"]]
    if best.time_s >= base.time_s * (1 - band / 100):
        return Pick(*DEFAULT, config, base.dram_read_bytes, base.dram_read_bytes,
                    f"no candidate is predicted faster than grouped({key[0]}) by more than "
                    f"the noise band ({band}%)", base.time_s, base.time_s)
    fewer = 100 * (1 - best.dram_read_bytes / max(base.dram_read_bytes, 1))
    return Pick("grouped", {"group": group, "along": along}, config, best.dram_read_bytes,
                base.dram_read_bytes,
                f"predicted {100 * (1 - best.time_s / base.time_s):.0f}% faster than "
                f"grouped({key[0]}) (the L2 model: {fewer:.0f}% fewer DRAM bytes)",
                best.time_s, base.time_s)
