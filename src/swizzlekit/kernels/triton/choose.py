"""Plan stage: choosing the GEMM's tile config without timing them all: a cost model of each
config, fitted per GPU on one half of that card's table and judged on the other.

On the first call of a shape, Triton's autotuner compiles and times every config the prune
keeps (10 to 25). With this model it times only those :func:`timed` names: the
:func:`top_k` that the model ranks fastest, or, where both operands are narrow, the best of
each group of stage twins for :func:`narrow_top_k` groups (the autotuner's early prune,
``configs.Prune``). ``SWIZZLEKIT_AUTOTUNE=full`` times them all, and
``SWIZZLEKIT_AUTOTUNE=0`` takes the model's first pick
(:mod:`~swizzlekit.kernels.triton.configs`).

The model, per config (tile ``BM x BN x BK``, ``S`` stages, ``W`` warps) on an M x N x K
problem with ``e``-byte operands::

    tiles T = ceil(M/BM) ceil(N/BN)      steps = ceil(K/BK)      r = CTAs per SM
    waves = ceil(T / (SMs r))            n = CTAs that share one SM at once (<= r)
    step  = max( n * 2 BM BN BK / (peak_per_SM * efficiency[config])   tensor cores
                 latency / (S - 1)                                     the pipeline's depth
                 CTAs at once * (BM + BN) BK e / l2_bandwidth           operands through L2
                 n * narrow elements / narrow_rate )                    rows loaded one by one
    time  = max(waves * steps * step, (M K + K N) e / DRAM bandwidth) + launch

``narrow elements`` are the tile's elements of an operand whose rows are not a multiple of 16
elements (pointer loads only): Triton specializes integers on divisibility by 16 and loads
such rows one element at a time, unless the launch's 16-byte hint covers them
(:func:`.footprint.vec_hint`, its ``VEC`` above 1). ``r`` follows
:func:`swizzlekit.gpus.residency` from the config's shared memory and warps, with the
registers estimated as the fp32 accumulator's share per thread plus 32. SMs, peaks and DRAM
bandwidth come from :mod:`swizzlekit.gpus`.
Fitted (``data/tiles_model.json``, by :mod:`swizzlekit.lab.tile_fit`): ``latency``,
``l2_bandwidth``, ``narrow_rate`` and ``launch`` over a grid, and one ``efficiency`` per
config and kernel, on the fit half of each card's table (``swizzlekit lab tiles``):
``data/tiles_h200.csv`` for the H200 and ``data/tiles_h100.csv`` for the H100. A call takes
the fit of the card it runs on (:func:`~swizzlekit.kernels.triton.device.current_gpu`,
:func:`fit_of`).

>>> p = predict(4096, 4096, 4096, "16bit", "tma", "128x256x64/s3/w8", gpu_name="h200")
>>> 0.15e-3 < p < 0.3e-3         # seconds; the H200 measured 0.19 ms
True
"""

from __future__ import annotations

import functools
import json
import math
from types import SimpleNamespace

from swizzlekit.data import FOLDER
from swizzlekit.errors import check_choice, check_int
from swizzlekit.gpus import gpu, residency
from swizzlekit.kernels.triton.device import current_gpu
from swizzlekit.kernels.triton.footprint import VEC_NAMES, element_size, vec_hint

__all__ = ["TABLE", "TABLES", "FITTED_PATH", "FITTED_PATHS", "fit_of", "GRID", "EFFICIENCIES",
           "FLAT_AHEAD", "top_k", "narrow_top_k", "stage_twin", "timed", "both_narrow",
           "predict", "terms", "seconds", "perf_model", "family", "fitted", "config_label"]

#: Each fitted card's measurements (``swizzlekit lab tiles``) and fitted parameters.
TABLES = {"h200": FOLDER / "tiles_h200.csv", "h100-sxm": FOLDER / "tiles_h100.csv"}
FITTED_PATHS = {"h200": FOLDER / "tiles_model.json", "h100-sxm": FOLDER / "tiles_model_h100.json"}
#: The H200's, the first table.
TABLE, FITTED_PATH = TABLES["h200"], FITTED_PATHS["h200"]
#: The grids the fit searches (:mod:`swizzlekit.lab.tile_fit`).
GRID = {"latency": (0.5e-6, 1e-6, 1.5e-6, 2e-6), "l2_bandwidth": (8e12, 12e12, 20e12),
        "narrow_rate": (0.3e9, 1e9, 3e9, 10e9), "launch": (2e-6, 4e-6, 6e-6)}
EFFICIENCIES = tuple(round(0.05 + 0.025 * i, 3) for i in range(39))       # 0.05 .. 1.0
#: A flattened config (``/flat``) that the fitted table lacks is ranked just ahead of its
#: one-tile-per-program twin, so the autotuner times both (docs/data/bench/JOURNAL.md).
FLAT_AHEAD = 0.999
_PEAK = {"16bit": "bf16", "tf32": "tf32", "ieee": "fp32", "fp8": "fp8"}
_ELEM = {"16bit": 2, "tf32": 4, "ieee": 4, "fp8": 1}


def family(elem_bytes: int, precision: str) -> str:
    """The model's name for a call's operand type: ``16bit``, ``tf32``, ``ieee`` or ``fp8``.

    >>> family(2, "tf32"), family(4, "ieee")
    ('16bit', 'ieee')
    """
    check_choice("elem_bytes", elem_bytes, (1, 2, 4))
    check_choice("precision", precision, ("tf32", "ieee", "fp8"))
    if elem_bytes == 4:
        return "ieee" if precision == "ieee" else "tf32"
    return {2: "16bit", 1: "fp8"}[elem_bytes]


def config_label(kwargs: dict, stages: int, warps: int) -> str:
    """A config's name in the table and the model: ``BMxBNxBK/sS/wW``, with ``/swap`` for
    Cᵀ = Bᵀ Aᵀ and ``/flat`` for one program per SM walking the tiles in one flattened loop
    (``kwargs``: its constexprs).

    >>> config_label({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "SWAP_AB": False}, 3, 8)
    '128x256x64/s3/w8'
    """
    swap = "/swap" if kwargs.get("SWAP_AB") else ""
    flat = "/flat" if kwargs.get("FLAT") else ""
    return (f"{kwargs['BLOCK_M']}x{kwargs['BLOCK_N']}x{kwargs['BLOCK_K']}/s{stages}/w{warps}"
            f"{swap}{flat}")


def _parse(config: str) -> tuple[int, int, int, int, int, bool]:
    tile, stages, warps, *rest = config.split("/")
    bm, bn, bk = map(int, tile.split("x"))
    return bm, bn, bk, int(stages[1:]), int(warps[1:]), "swap" in rest


@functools.lru_cache(maxsize=4096)
def _residency(bm: int, bn: int, bk: int, stages: int, warps: int, elem: int, out: int,
               gpu_name: str) -> int:
    from swizzlekit.kernels.triton.footprint import config_smem

    cfg = SimpleNamespace(kwargs={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}, num_stages=stages)
    regs = min(255, bm * bn // (32 * warps) + 32)
    return max(1, residency(gpu_name, 32 * warps, regs, min(config_smem(cfg, elem, out),
                                                            gpu(gpu_name).smem_per_block)))


def terms(M: int, N: int, K: int, fam: str, config: str, *, narrow_a=False, narrow_b=False,
          split: int = 1, gpu_name: str = "h200") -> tuple[float, ...]:
    """The parts of :func:`predict` that need no fitted number: ``(rounds, compute, pipeline,
    l2, narrow, dram)``: waves x steps; a step's tensor-core seconds at efficiency 1; the
    divisor S - 1 of the latency; bytes through L2 per step; elements loaded one by one per
    step and SM; seconds to read A and B once from DRAM. ``split``: K split that many ways,
    each tile's CTAs that many times over with a share of the steps each."""
    g = gpu(gpu_name)
    bm, bn, bk, stages, warps, _ = _parse(config)
    e = _ELEM[fam]
    tiles = math.ceil(M / bm) * math.ceil(N / bn) * split
    steps = math.ceil(math.ceil(K / bk) / split)
    r = _residency(bm, bn, bk, stages, warps, e, 4 if fam in ("tf32", "ieee") else 2, gpu_name)
    slots = g.sms * r
    active = min(tiles, slots)
    share = min(r, math.ceil(active / g.sms))
    if _PEAK[fam] not in g.peak_tflops:
        from swizzlekit.errors import SwizzleKitError

        from swizzlekit.kernels.triton.device import PLANNED

        raise SwizzleKitError(f"GPU {gpu_name!r} has no {_PEAK[fam]} peak rate; the config "
                              f"model plans for: {', '.join(PLANNED)}")
    peak = g.peak_tflops[_PEAK[fam]] * 1e12 / g.sms
    narrow = (bm * bk if narrow_a else 0) + (bn * bk if narrow_b else 0)
    return (math.ceil(tiles / slots) * steps, share * 2 * bm * bn * bk / peak,
            max(1, stages - 1), active * (bm + bn) * bk * e, share * narrow,
            (M * K + K * N) * e / (g.dram_gbps * 1e9))


def seconds(t: tuple, efficiency: float, p: dict) -> float:
    """:func:`predict` from its :func:`terms`, one config's efficiency and the globals."""
    rounds, compute, pipeline, l2, narrow, dram = t
    step = max(compute / efficiency, p["latency"] / pipeline, l2 / p["l2_bandwidth"],
               narrow / p["narrow_rate"])
    return max(rounds * step, dram) + p["launch"]


def predict(M: int, N: int, K: int, fam: str, kernel: str, config: str, *, narrow_a=False,
            narrow_b=False, split: int = 1, params: dict | None = None,
            gpu_name: str | None = None) -> float:
    """Predicted seconds of one launch of ``config`` (``BMxBNxBK/sS/wW[/swap]``) of ``kernel``
    (pointer, tma, fp8_pointer, fp8_tma) on M x N x K operands of ``fam`` (:func:`family`).
    ``narrow_a``/``narrow_b``: that operand's rows load element by element (:func:`_narrow`).
    ``split``: K split that many ways in one launch (:mod:`.split_k`); the partials' extra
    traffic is not modelled (they stay in L2). ``gpu_name``: the preset (default: the card
    this process runs on, :func:`~swizzlekit.kernels.triton.device.current_gpu`); the
    parameters are :func:`fit_of` its fit."""
    gpu_name = gpu_name or current_gpu()
    p = params or fitted(gpu_name)
    base = config.removesuffix("/flat")
    t = terms(M, N, K, fam, base, narrow_a=narrow_a, narrow_b=narrow_b, split=split,
              gpu_name=gpu_name)
    fitted_eff = p["efficiency"].get(f"{fam}/{kernel}/{config}")
    if fitted_eff is not None or base == config:
        return seconds(t, fitted_eff or p["default_efficiency"], p)
    # a flattened config the fit has not seen: just ahead of its twin
    eff = p["efficiency"].get(f"{fam}/{kernel}/{base}", p["default_efficiency"])
    return seconds(t, eff, p) * FLAT_AHEAD


def fit_of(gpu_name: str) -> str:
    """The preset whose fit ``gpu_name`` takes: its own where it has one (:data:`FITTED_PATHS`),
    the H100 SXM's for the H100 PCIe, else the H200's.

    >>> fit_of("h100-sxm"), fit_of("h100-pcie"), fit_of("a100")
    ('h100-sxm', 'h100-sxm', 'h200')
    """
    gpu(gpu_name)                                   # the door: a preset's name
    name = gpu_name.lower()
    if name in FITTED_PATHS:
        return name
    return "h100-sxm" if name.startswith("h100") else "h200"


@functools.cache
def _fitted(name: str) -> dict:
    return json.loads(FITTED_PATHS[name].read_text())


def fitted(gpu_name: str | None = None) -> dict:
    """The fitted parameters of ``gpu_name`` (default: this process's card), from
    :func:`fit_of` its fit (``data/tiles_model*.json``, :func:`swizzlekit.lab.tile_fit.fit`)."""
    return _fitted(fit_of(gpu_name or current_gpu()))


fitted.cache_clear = _fitted.cache_clear


def top_k(gpu_name: str | None = None) -> int:
    """How many of the model's best configs the autotuner times: the least k whose picks ran
    within 1% of the fastest config on 95% of the fit half's problems
    (:func:`swizzlekit.lab.tile_fit.fit`)."""
    return int(fitted(gpu_name)["top_k"])


def narrow_top_k(gpu_name: str | None = None) -> int:
    """How many groups of stage twins the autotuner times where both operands are narrow
    (:func:`timed`): the same rule as :func:`top_k`, on the fit half's both-narrow problems."""
    return int(fitted(gpu_name)["narrow_top_k"])


def stage_twin(config: str) -> str:
    """A config's label without its stage count, which stage twins share.

    >>> stage_twin("128x64x64/s3/w4/swap"), stage_twin("64x64x128/s8/w4")
    ('128x64x64/w4/swap', '64x64x128/w4')
    """
    head, *rest = config.split("/")
    return "/".join([head] + [p for p in rest if not (p[0] == "s" and p[1:].isdigit())])


def timed(labels: list[str], both_narrow: bool, flat: int = 0, k: int | None = None,
          gpu_name: str | None = None) -> list[int]:
    """Which of a call's configs the default autotune times, given their ``labels`` ranked by
    the model (fastest first): the first ``top_k() + flat`` (``flat``: the kernel's flattened
    twins, each ranked just ahead of its twin). Where both operands are narrow, stage twins
    ran alike (docs/data/bench/JOURNAL.md, "the narrow set"), so only the best-ranked of each group
    is timed, for the first ``narrow_top_k()`` groups. ``k`` replaces either count;
    ``gpu_name`` names the fit the counts come from (default: this process's card).

    >>> timed(["a/s3/w4", "a/s4/w4", "b/s3/w4", "c/s3/w4"], True, k=2)
    [0, 2]
    >>> timed(["a/s3/w4", "a/s4/w4", "b/s3/w4", "c/s3/w4"], False, k=2)
    [0, 1]
    """
    if k is not None:
        check_int("k", k, 1)
    check_int("flat", flat, 0)
    if not both_narrow:
        return list(range(min(len(labels), top_k(gpu_name) + flat if k is None else k)))
    seen, firsts = set(), []
    for i, label in enumerate(labels):
        if stage_twin(label) not in seen:
            seen.add(stage_twin(label))
            firsts.append(i)
    return firsts[:narrow_top_k(gpu_name) if k is None else k]


# ------------------------------------------------------------------ the autotuner's hook
def _narrow(stride_major: int, stride_minor: int, vec: int = 1) -> bool:
    """An operand read along its unit stride, whose other stride Triton cannot see divisible by
    16 elements, nor by the launch's ``vec`` (:func:`.footprint.vec_hint`, which divides it
    where above 1), or read with no unit stride at all."""
    if stride_minor == 1:
        return stride_major % 16 != 0 and vec == 1
    if stride_major == 1:
        return stride_minor % 16 != 0
    return True


def _vec(named_args: dict) -> int:
    """The pointer kernel's ``VEC`` for these arguments (1 where they lack one it reads)."""
    if "a_ptr" not in named_args or any(n not in named_args for n in VEC_NAMES):
        return 1
    return vec_hint(named_args, element_size(named_args["a_ptr"]))


def both_narrow(named_args: dict) -> bool:
    """Whether a call loads both operands by pointers, each narrow (:func:`_narrow`)."""
    vec = _vec(named_args)
    return ("a_ptr" in named_args
            and _narrow(named_args["stride_am"], named_args["stride_ak"], vec)
            and _narrow(named_args["stride_bk"], named_args["stride_bn"], vec))


def perf_model(kernel: str, gpu_name: str | None = None):
    """The model as Triton's ``perf_model`` hook for ``kernel``: the named arguments and one
    config's constexprs in, :func:`predict`'s seconds out (``configs.Prune`` ranks by it), on
    ``gpu_name`` (default: the card the call runs on, looked up once here, not per config)."""
    gpu_name = gpu_name or current_gpu()

    def estimate(**kw) -> float:
        a = kw.get("a_ptr", kw.get("a_desc"))
        fam = family(element_size(a), kw.get("PRECISION", "tf32"))
        pointer = "a_ptr" in kw
        config = config_label(kw, kw["num_stages"], kw["num_warps"])
        vec = _vec(kw)
        return predict(kw["M"], kw["N"], kw["K"], fam, kernel, config,
                       narrow_a=pointer and _narrow(kw["stride_am"], kw["stride_ak"], vec),
                       narrow_b=pointer and _narrow(kw["stride_bk"], kw["stride_bn"], vec),
                       split=kw.get("SPLIT_K", 1), gpu_name=gpu_name)

    return estimate
