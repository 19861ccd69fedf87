"""Plan stage, on the CPU: what a GEMM call's first run will try, worked out on the CPU: the
tile configs the autotuner's prune keeps, the config model's ranking of them, the ones the
default autotune times, and the CTA order the L2 model picks.

:func:`autotune_plan` calls the kernels' own prune (``_prune``), the autotuner's own
``perf_model`` hook, the order pick of ``order="auto"`` and the load path's size rule
(``tma_by_size``), with stand-ins for the tensors: contiguous row-major A and B (fp8's B
K-major, as :func:`~swizzlekit.kernels.scaled_matmul` takes it) on a GPU. Two rules are
restated here, each marked with where it lives: when a call runs on copies
(``copies.copy_route``: a 16-bit call copies the operands TMA cannot read into 128-byte rows,
``copies._tma_copies``, and writes a C it cannot store by masked stores; others copy every
operand with K and N rounded up to 16) and TF32's K-major B (``matmul``). Which
configs the autotune mode times is the autotuner's own early prune (``configs.Prune``), called
here as the autotuner calls it. The configs are ranked for one split of K; ``splits`` names
the splits ``split_k=None`` times on the first call (``splits.auto_split``: S = 1 and 2 at
M <= 512), the first call keeping the fastest.

>>> plan = autotune_plan(4096, 4096, 4096, "bf16")
>>> plan.kernel, plan.order
('tma', 'grouped')
>>> sum(row.timed for row in plan.configs) == plan.timed
True
>>> try:
...     autotune_plan(4096, 4096, 4096, "int8")
... except SwizzleKitError as e:
...     print(e)
precision 'int8' is not valid; choose one of: bf16, fp16, tf32, fp32, fp8
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple

from swizzlekit.errors import SwizzleKitError, check_bool, check_choice, check_int
from swizzlekit.kernels.triton.call import MAX_DIM

__all__ = ["PRECISIONS", "KERNELS", "MAX_DIM", "Ranked", "AutotunePlan", "autotune_plan"]

#: ``swizzlekit bench``'s precision names: (operand bytes, ``matmul``'s precision).
PRECISIONS = {"bf16": (2, "tf32"), "fp16": (2, "tf32"), "tf32": (4, "tf32"),
              "fp32": (4, "ieee"), "fp8": (1, "fp8")}
#: The load paths: ``tma=None`` (the call's default), ``tma=True``, ``tma=False``.
KERNELS = ("auto", "tma", "pointer")
_FP8_OUT_BYTES = 2                   # scaled_matmul's default output, bf16


class Ranked(NamedTuple):
    """One config as the model ranks it: its label, predicted seconds, and whether the
    default autotune times it."""
    config: str
    seconds: float
    timed: bool


class AutotunePlan(NamedTuple):
    """:func:`autotune_plan`'s answer. ``kernel``: the load path the call takes (tma or
    pointer); ``model``: that kernel's name in the config model; ``copies``: whether it runs
    on aligned copies, of the sizes ``kernel_shape``; ``configs``: every config the prune
    keeps, fastest predicted first; ``timed``: how many of them the autotune mode times
    (``SWIZZLEKIT_AUTOTUNE``: ``mode``); ``both_narrow``: both operands load narrow, so the
    default mode times one config per group of stage twins; ``b_pitch_copy``: the TMA kernel
    reads B from a copy in rows of a 128-byte pitch (:func:`~.copies.pitch_copy`); ``gpu``: the
    preset planned for, whose config-model fit ranks the configs; ``b_kmajor_copy``: TF32 on a
    row-major B copied K-major first (:func:`~.matmul_configs.tf32_copy_min_m`); ``copied``:
    the operands (``"A"``, ``"B"``, ``"AB"``) a 16-bit call copies into 128-byte rows for TMA
    first, at their own sizes (:func:`~.copies._tma_copies`); ``c_masked``: the TMA kernel
    writes C by masked stores, its rows being no 16-byte multiples (:mod:`~.tma_kernel`);
    ``splits``: the splits of K ``split_k=None`` times on the first call, keeping the
    fastest (:func:`~.splits.auto_split`), or ``(1,)`` where it runs one; ``wide``: the
    composite tile the first call times against the autotuned config, where the split kept
    is 1 (:func:`~.waves.wide_for`; their labels, none where none); ``c_regs``: the tile a TF32
    call on B K-major runs with C stored from registers where the split kept is 1, untimed
    from :data:`~.matmul_configs.C_REGS_RULE_MIN_M` rows
    (:func:`~.matmul_configs.c_regs_taken`), below them timed against the autotuned config
    on the first call, the faster kept (``c_regs_timed`` True;
    :func:`~.matmul_configs.c_regs_timed`); ``tail_ways``: where the first call times a tail
    split against the autotuned config (:func:`~.waves.tail_for`), the shares each of the
    last partial wave's 128x256 tiles is split into, else 0;
    ``hints``: how the caller's operands could skip a copy the call makes on every call
    (:func:`_hints`)."""
    M: int
    N: int
    K: int
    precision: str
    kernel: str
    model: str
    persistent: bool
    copies: bool
    kernel_shape: tuple[int, int, int]
    mode: str
    swapped: bool
    both_narrow: bool
    configs: tuple[Ranked, ...]
    timed: int
    order: str
    order_params: dict
    order_reason: str
    b_pitch_copy: bool = False
    gpu: str = "h200"
    b_kmajor_copy: bool = False
    copied: str = ""
    c_masked: bool = False
    splits: tuple[int, ...] = (1,)
    wide: tuple[str, ...] = ()
    c_regs: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    tail_ways: int = 0
    c_regs_timed: bool = False

    def to_dict(self) -> dict:
        out = self._asdict()
        out["configs"] = [r._asdict() for r in self.configs]
        return out


def _tensor(elem: int) -> SimpleNamespace:
    """A stand-in for a tensor or TMA descriptor: all the prune and the model read is its
    element size."""
    return SimpleNamespace(element_size=lambda: elem)


def _check(M, N, K, precision, kernel, persistent) -> tuple[int, int, int]:
    """The door: sizes, names, and a problem whose A, B and C fit the largest preset GPU."""
    from swizzlekit.gpus import GPUS

    M, N, K = (check_int(name, v, 1, MAX_DIM) for name, v in zip("MNK", (M, N, K)))
    check_choice("precision", precision, PRECISIONS)
    check_choice("kernel", kernel, KERNELS)
    check_bool("persistent", persistent)
    elem = PRECISIONS[precision][0]
    out = _FP8_OUT_BYTES if precision == "fp8" else elem
    need = (M * K + K * N) * elem + M * N * out
    largest = max(GPUS.values(), key=lambda g: g.memory_bytes)
    if need > largest.memory_bytes:
        raise SwizzleKitError(
            f"{M}x{N}x{K} in {precision} needs {need / 1e9:.3g} GB for A, B and C; the limit is "
            f"what the largest preset GPU holds ({largest.name}, "
            f"{largest.memory_bytes / 1e9:.0f} GB)")
    return M, N, K


def _ragged(N: int, K: int, precision: str) -> list[str]:
    """The operands' row lengths that are no 16-byte multiples (TMA needs them to be; fp8's
    B is K-major, and its C, where N does not allow TMA, is written by masked stores)."""
    elem = PRECISIONS[precision][0]
    rows = {"K": K} if precision == "fp8" else {"K": K, "N": N}
    return [f"{name} = {v}" for name, v in rows.items() if v * elem % 16]


class _Route(NamedTuple):
    tma: bool
    N: int                  # the sizes the kernel sees (aligned copies round them up)
    K: int
    copies: bool
    b_kmajor: bool
    pitch: bool             # B read from a copy in rows of a 128-byte pitch (matmul, TMA)
    copied: str = ""        # 16-bit: operands copied into 128-byte rows for TMA ("A", "B")
    c_masked: bool = False  # the TMA kernel writes C by masked stores


def _route(M: int, N: int, K: int, precision: str, kernel: str, persistent: bool,
           gpu: str) -> _Route:
    """The load path and operands of a call with ``tma`` = None (``auto``), True or False."""
    from swizzlekit.kernels.triton import matmul_configs as matmul
    from swizzlekit.kernels.triton import scaled_configs as scaled
    from swizzlekit.kernels.triton.copies import FP8_PAD_MIN_MNK, copy_route, pitch_copy

    elem, mm_precision = PRECISIONS[precision]
    fp8, ragged = precision == "fp8", _ragged(N, K, precision)
    if kernel == "tma" and ragged:
        raise SwizzleKitError(
            f"the TMA kernel needs rows of 16-byte multiples, and {' and '.join(ragged)} in "
            f"{precision} ({elem} bytes) do not give them; use kernel='pointer' or 'auto'")
    # matmul: copies.copy_route (the kernel names tma=None, True, False); scaled_matmul copies
    # from FP8_PAD_MIN_MNK, only with tma=None
    if fp8:
        mode = "pad" if ragged and M * N * K >= FP8_PAD_MIN_MNK and kernel == "auto" else ""
    else:
        mode = copy_route(elem, M, N, K, K * elem % 16 != 0, N * elem % 16 != 0,
                          {"auto": None, "tma": True, "pointer": False}[kernel])
    if mode == "copies":
        # matmul: copies._tma_copies: A's and B's rows TMA cannot read, K and N as given; the
        # ragged rows keep Triton's pointer loads 16 bytes wide at most, so TMA (tma_by_size)
        copied = ("A" if K * elem % 16 else "") + ("B" if N * elem % 16 else "")
        pitch = "B" not in copied and pitch_copy(M, N, K, N * elem, elem, gpu)
        return _Route(True, N, K, False, False, pitch, copied, N * elem % 16 != 0)
    copies = mode == "pad"
    if copies:
        K, N = -(-K // 16) * 16, (N if fp8 else -(-N // 16) * 16)
    if kernel == "auto":
        by_size = (scaled.tma_by_size(M, N, K, persistent) if fp8
                   else matmul.tma_by_size(elem, M, N, K, N % 16 == 0 and K % 16 == 0))
        tma = not _ragged(N, K, precision) and by_size
    else:
        tma = kernel == "tma"
    if fp8 and persistent and not tma:
        raise SwizzleKitError("fp8 pointer loads have no persistent grid; persistent=True "
                              "takes TMA, which needs K a multiple of 16")
    # matmul: TF32 copies B K-major, for aligned copies and for TMA from tf32_copy_min_m rows
    tf32 = elem == 4 and mm_precision == "tf32"
    b_kmajor = tf32 and (copies or (tma and M >= matmul.tf32_copy_min_m(gpu)))
    # matmul._plan: copies.pitch_copy on B as the TMA kernel reads it (row-major, N wide)
    pitch = tma and not fp8 and not b_kmajor and pitch_copy(M, N, K, N * elem, elem, gpu)
    return _Route(tma, N, K, copies, b_kmajor, pitch)


def _call(M: int, precision: str, persistent: bool, route: _Route, gpu: str):
    """The config model's kernel name, the kernel's configs and prune, this call's named
    arguments and constexprs, the pick of ``order="auto"``, and whether the call swaps."""
    from swizzlekit.kernels.triton import matmul_configs as mc

    elem, mm_precision = PRECISIONS[precision]
    tma, N, K, b_kmajor = route.tma, route.N, route.K, route.b_kmajor
    kernel = "tma" if tma else "pointer"
    if precision == "fp8":
        from swizzlekit.kernels.triton import scaled_configs as scaled

        chosen = scaled._order_pick(M, N, K, _FP8_OUT_BYTES, tma, persistent, gpu)
        named = {"M": M, "N": N, "K": K, "c_desc" if tma else "c_ptr": _tensor(_FP8_OUT_BYTES)}
        if tma:
            named["a_desc"] = _tensor(1)
            consts = {"PERSISTENT": persistent}
        else:
            named.update(a_ptr=_tensor(1), stride_am=K, stride_ak=1, stride_bk=1, stride_bn=K)
            consts = {}
        return "fp8_" + kernel, scaled._configs(flat=tma), scaled._prune, named, consts, \
            chosen, False
    chosen = mc._order_pick(elem, M, N, K, mm_precision, tma, b_kmajor, persistent, gpu)
    named = {"M": M, "N": N, "K": K}
    consts = {"PRECISION": mm_precision}
    if tma:
        named["a_desc"] = _tensor(elem)
        consts.update(B_KMAJOR=b_kmajor, PERSISTENT=persistent, ELEM_BYTES=elem,
                      C_PTR=bool(route.c_masked))
    else:
        strides = (1, K) if b_kmajor else (N, 1)
        named.update(a_ptr=_tensor(elem), stride_am=K, stride_ak=1, stride_bk=strides[0],
                     stride_bn=strides[1], stride_cm=N)
    swapped = mc._swap_ab(elem, mm_precision, b_kmajor, M) and (tma or elem == 2)
    return kernel, mc._configs(swap=True, flat=tma), mc._prune, named, consts, chosen, swapped


def autotune_plan(M: int, N: int, K: int, precision: str = "bf16", kernel: str = "auto",
                  persistent: bool = False, gpu: str | None = None) -> AutotunePlan:
    """The configs an M x N x K call (``precision`` as ``swizzlekit bench`` names them) would
    autotune over, ranked by the config model, and the order it would run. ``kernel``: the
    load path the call asks for (``auto``: the call's default, ``tma=None``; ``tma``;
    ``pointer``). ``gpu``: the preset to plan for (default: this process's CUDA device,
    else the H200; :func:`~swizzlekit.kernels.triton.device.current_gpu`). One split of K, and
    the autotune mode of this process (``SWIZZLEKIT_AUTOTUNE``)."""
    from swizzlekit.kernels.triton import choose
    from swizzlekit.kernels.triton.call import _order_args
    from swizzlekit.kernels.triton.choose import config_label
    from swizzlekit.kernels.triton.configs import Prune, current_mode

    from swizzlekit.kernels.triton.device import check_planned, current_gpu
    from swizzlekit.kernels.triton.splits import AUTO_SPLITS, auto_split

    M, N, K = _check(M, N, K, precision, kernel, persistent)
    gpu = check_planned(current_gpu() if gpu is None else gpu)
    route = _route(M, N, K, precision, kernel, persistent, gpu)
    model, configs, prune, named, consts, chosen, swapped = _call(M, precision, persistent,
                                                                  route, gpu)
    consts.update(ORDER=_order_args(chosen.order, chosen.params)[0], SPLIT_K=1)
    kept = prune(configs, named, **consts)
    estimate = choose.perf_model(model, gpu)
    ranked = sorted(((estimate(**named, **consts, **c.kwargs, num_stages=c.num_stages,
                               num_warps=c.num_warps),
                      config_label(c.kwargs, c.num_stages, c.num_warps)) for c in kept),
                    key=lambda r: r[0])            # stable, as Triton's prune sorts them
    chosen_ones = {config_label(c.kwargs, c.num_stages, c.num_warps)
                   for c in Prune(prune, model, gpu)(configs, named, **consts)}
    rows = tuple(Ranked(label, seconds, label in chosen_ones) for seconds, label in ranked)
    timed = len(chosen_ones)
    c_regs, c_regs_timed = _c_regs(M, precision, persistent, route)
    return AutotunePlan(M, N, K, precision, "tma" if route.tma else "pointer", model,
                        persistent, route.copies, (M, route.N, route.K), current_mode(), swapped,
                        choose.both_narrow(named), rows, timed, chosen.order,
                        dict(chosen.params), chosen.reason, route.pitch, gpu,
                        b_kmajor_copy=route.b_kmajor and not route.copies,
                        copied=route.copied, c_masked=route.c_masked,
                        splits=AUTO_SPLITS if auto_split(M, N, K, persistent) else (1,),
                        wide=_wide(M, N, K, precision, persistent, route, gpu),
                        c_regs=c_regs, hints=_hints(route, precision),
                        tail_ways=_tail(M, precision, kernel, persistent, route,
                                        chosen.order, gpu),
                        c_regs_timed=c_regs_timed)


def _hints(route: _Route, precision: str) -> tuple[str, ...]:
    """For each copy the call makes on every call, how the caller's operands could skip it
    (the rules the route follows: :mod:`~.copies`, :func:`~.matmul_configs.tf32_copy_min_m`).

    >>> _hints(_Route(True, 5000, 4000, False, False, True), "bf16")[0][:44]
    'B is copied into rows 128 bytes apart on eve'
    >>> _hints(_Route(True, 4096, 4096, False, False, False), "bf16")
    ()
    """
    from swizzlekit.kernels.triton.copies import PITCH_ALIGN, PITCH_BYTES

    out = []
    if route.copies:
        out.append("the operands are copied, zero-padded to rows of 16-byte multiples, on "
                   "every call: operands whose rows are 16-byte multiples as given skip it")
    if route.copied:
        out.append(f"{' and '.join(route.copied)} copied into rows {PITCH_BYTES} bytes apart "
                   f"on every call, TMA needing rows of 16-byte multiples: such rows as given "
                   f"(a view of a wider buffer) skip it")
    if route.b_kmajor and not route.copies:
        out.append("B is copied K-major on every call (TF32 takes B K-major): pass it K-major, "
                   "bt.T for an N x K tensor bt, and the call reads it as given")
    if route.pitch:
        out.append(f"B is copied into rows {PITCH_BYTES} bytes apart on every call, its rows "
                   f"not starting on {PITCH_ALIGN}-byte boundaries: B as a view of a buffer "
                   f"whose rows are a multiple of {PITCH_ALIGN} bytes apart skips it")
    return tuple(out)


def _c_regs(M: int, precision: str, persistent: bool,
            route: _Route) -> tuple[tuple[str, ...], bool]:
    """``(labels, timed)``: the tiles ``matmul._plan`` runs with C stored from registers where
    the split kept is 1, and whether the first call times them against the autotuned config
    (:func:`~.matmul_configs.c_regs_timed`) or takes them untimed
    (:func:`~.matmul_configs.c_regs_taken`); none where neither."""
    from swizzlekit.kernels.triton.matmul_configs import C_REGS_TILES, c_regs_taken, c_regs_timed

    elem, mm_precision = PRECISIONS[precision]
    args = (elem, mm_precision, route.tma, route.b_kmajor, persistent, M)
    timed = c_regs_timed(*args)
    tiles = tuple(C_REGS_TILES) if c_regs_taken(*args) else timed
    return tuple(f"{bm}x{bn}x{bk}/s{s}/w{w}" for bm, bn, bk, s, w in tiles), bool(timed)


def _tail(M: int, precision: str, kernel: str, persistent: bool, route: _Route, order: str,
          gpu: str) -> int:
    """The shares of a tail split the GEMM's plan times on the first call (its 128x256 tiles',
    :func:`~.waves.tail_shares`, K in steps of 64, fp8's of 128), where the route may take
    one; else 0. An fp8 call times it by TMA whatever its plain plan's loads, where its rows
    allow TMA and ``kernel`` is not "pointer" (``scaled._plan``)."""
    from swizzlekit.gpus import gpu as preset
    from swizzlekit.kernels.triton.matmul_configs import FLAT_ORDERS
    from swizzlekit.kernels.triton.waves import tail_route, tail_shares, tail_timed

    fp8 = precision == "fp8"
    by_tma = (kernel != "pointer" and not _ragged(route.N, route.K, precision)) if fp8 \
        else route.tma
    block_k, sms = (128 if fp8 else 64), preset(gpu).sms
    if not (tail_route(PRECISIONS[precision][0], persistent, by_tma, order in FLAT_ORDERS)
            and tail_timed(M, route.N, route.K, sms, block_k)):
        return 0
    return tail_shares(M, route.N, route.K, sms, block_k)


def _wide(M: int, N: int, K: int, precision: str, persistent: bool, route: _Route,
          gpu: str) -> tuple[str, ...]:
    """The labels of the composite tiles ``matmul._plan`` times on the first call, where the
    route may take one (:func:`~.waves.wide_route`)."""
    from swizzlekit.gpus import gpu as preset
    from swizzlekit.kernels.triton.waves import wide_route, wide_timed

    if not wide_route(PRECISIONS[precision][0], persistent, route.tma, route.b_kmajor,
                      not route.c_masked):
        return ()
    return tuple(t.label for t in wide_timed(M, route.N, route.K, preset(gpu).sms))
