"""Door, plan and launch stages: tensor-core GEMM in Triton under any CTA order:
``swizzlekit.kernels.matmul(a, b, order=...)``.

Reads top to bottom: launcher (the door), plan, launch, validation. The kernels are in
:mod:`swizzlekit.kernels.triton.pointer_kernel` (pointer loads),
:mod:`swizzlekit.kernels.triton.tma_kernel` (TMA) and
:mod:`swizzlekit.kernels.triton.wide_kernel` (TMA in composite tiles); the tile order and
the pointer-load K loop the kernels call are in :mod:`swizzlekit.kernels.triton.tiles`,
shared with the fp8 kernel; the call's checks and plan key are in
:mod:`swizzlekit.kernels.triton.call`, and which operands it copies first, and how, in
:mod:`swizzlekit.kernels.triton.copies`; a repeat call on copies by device addresses, in
:mod:`swizzlekit.kernels.triton.express`; where composite tiles and tail splits are timed,
in :mod:`swizzlekit.kernels.triton.waves`; what a signature's first call times beside its
autotuned plan (composite tiles; TF32's 128x256 tiles with C stored from registers,
:data:`.matmul_configs.C_REGS_TILES`), in :mod:`swizzlekit.kernels.triton.first_call`.
Every order of :data:`swizzlekit.cta.ORDERS` runs through the ``@triton.jit`` order functions
of :mod:`swizzlekit.cta.triton`. CUTLASS and zlayer launch grids of their own, and Morton and
Hilbert the enclosing power-of-two square; programs that land outside the tile grid exit, so
the tiles run in exactly the numpy order. ``persistent=True`` launches two programs per SM,
each walking those launch slots with a stride.
"""

from __future__ import annotations

import functools

import triton

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton.auto_order import AUTO
from swizzlekit.kernels.triton.call import (_INTERPRET, PRECISIONS, _check, _check_flags,
                                            _order_args, _requested_order, _signature, _slots,
                                            _tma_ok, _whole_sectors)
from swizzlekit.kernels.triton.copies import (COPY_B_MIN_M, COPY_MIN_MNK, PAD_MIN_MNK,
                                              _copy_first, _padded_call, _pitch_first,
                                              _pitched, _tma_copies)
from swizzlekit.kernels.triton.plans import PlanCache, capture
from swizzlekit.kernels.triton.routes import Route, RouteCache, fingerprint
from swizzlekit.kernels.triton.tiles import _by_tma, _descriptors, _one_per_sm, _sms
from swizzlekit.kernels.triton.split_k import launch_buffers, resolve
from swizzlekit.kernels.triton.splits import check_split, split_k_for
from swizzlekit.kernels.triton.matmul_configs import (C_REGS, FLAT_ORDERS, MAX_TILE_AREA,
                                                      TMA_MIN_M, TMA_MIN_MNK, _auto_order,
                                                      c_regs_taken, c_regs_timed,
                                                      tf32_copy_min_m,
                                                      tma_by_size)
from swizzlekit.kernels.triton.kmajor import kmajor_copy
from swizzlekit.kernels.triton.pointer_kernel import _matmul_kernel
from swizzlekit.kernels.triton.tma_kernel import _matmul_tma_kernel, _set_blocks  # noqa: F401
from swizzlekit.kernels.triton.express import _express, _follow_copies
from swizzlekit.kernels.triton.first_call import TAIL, pick_last_wave, pick_regs
from swizzlekit.kernels.triton.clustered import (CUTLASS_CANDIDATES, build_cutlass,
                                                 clustered_route, cutlass_matmul, described,
                                                 launch_matmul, pick_clustered)
from swizzlekit.kernels.triton.waves import tail_route, tail_timed, wide_route, wide_timed
from swizzlekit.kernels.triton.wide_kernel import launch_wide, wide_label

__all__ = ["matmul", "describe", "split_k_for", "KERNEL_ORDERS", "PRECISIONS", "TOLERANCE",
           "PLANS", "COPY_MIN_MNK", "COPY_B_MIN_M", "PAD_MIN_MNK", "TMA_MIN_M", "TMA_MIN_MNK",
           "tf32_copy_min_m", "tma_by_size"]

#: The order names the kernel dispatches on (a constexpr string): the orders of
#: :data:`swizzlekit.cta.ORDERS`, with ``grouped`` along N as ``grouped_n``.
KERNEL_ORDERS = ("row", "col", "grouped", "grouped_n", "grouped_persistent", "strip",
                 "strip_snake", "snake", "cutlass", "zlayer", "morton", "hilbert")


# ---------------------------------------------------------------------------------- launcher

#: Launch plans by call signature (:mod:`.plans`): a repeat call skips Triton's per-call work.
PLANS = PlanCache()
#: ``split_k=None``: the split each signature's first call timed fastest (:func:`.pick_split`).
SPLITS = PlanCache()
#: Repeat calls by fingerprint: the door's verdict and the plan's key (:mod:`.routes`).
ROUTES = RouteCache(4096)
#: Where :func:`.waves.wide_for` names composite tiles or :func:`.waves.tail_for` a tail
#: split: what each signature's first call timed fastest for its last wave, the wide plan,
#: :data:`.first_call.TAIL`, or False where the autotuned config won.
LAST_WAVE = PlanCache()
#: Whether calls may time composite tiles (:mod:`.wide_kernel`); off, every call runs the
#: autotuned configs (a switch for measuring the two against each other).
WIDE_TILES_ON = True
#: Whether calls may time a tail split (``TAIL``); off, as :data:`WIDE_TILES_ON`.
TAIL_SPLIT_ON = True
#: Whether calls take C from registers where :func:`.matmul_configs.c_regs_taken` names it;
#: off, they run the autotuned configs there (as :data:`WIDE_TILES_ON`).
C_REGS_ON = True
#: Where :func:`.clustered.clustered_route` (16-bit, B's rows off 64-byte boundaries): the
#: tiles of CUTLASS's GEMM in clusters where each fingerprint's first call timed one faster
#: than its Triton plan, else 0.
CLUSTERED = PlanCache(4096)
#: Where :func:`.matmul_configs.c_regs_timed` (TF32 on B K-major, below the rule's rows):
#: whether each signature's first call timed C from registers faster than its autotuned plan.
REGS = PlanCache()


def matmul(a, b, order: str = "auto", *, out=None, precision: str = "tf32",
           persistent: bool = False, tma: bool | None = None, split_k: int | None = None,
           **order_params):
    """``a @ b`` on torch tensors (2-D, same device and dtype: fp16, bf16 or fp32).

    ``order`` is any name in :data:`swizzlekit.cta.ORDERS` with its parameters (``group=8``,
    ``width=...``), or ``"auto"`` (the default): the L2 model's pick for the shape among the
    grouped orders (:func:`~swizzlekit.kernels.triton.auto_order.pick`). ``precision``
    ("tf32" or "ieee") applies to fp32 inputs. Any shape and strides; ``out`` may be given
    (it must be M x N, same dtype and device). ``tma``: move tiles with the tensor memory
    accelerator (default: when the tensors allow it, on a GPU,
    except 16-bit problems of M < :data:`TMA_MIN_M` or M*N*K <= :data:`TMA_MIN_MNK`, where
    TMA measured no faster). A repeat call with the same layouts and options skips the
    checks (:mod:`~swizzlekit.kernels.triton.routes`).
    ``split_k``: split K S ways in one launch, the last split of each tile adding the fp32
    partials (:mod:`~swizzlekit.kernels.triton.split_k`; not with persistent grids). The
    default (None) times S = 1 and 2 on the first call of a signature where M <= 512 on a
    GPU, and keeps the faster (``splits.auto_split``); elsewhere it means 1.
    TF32 with a row-major B runs the TMA kernel on Cᵀ = Bᵀ Aᵀ (wgmma takes TF32 from shared
    memory only K-major), or from :func:`tf32_copy_min_m` rows on a K-major copy of B. 16-bit
    calls with a row-major B and at most ``SWAP_16BIT_MAX_M`` rows compute Cᵀ = Bᵀ Aᵀ too.
    From :data:`COPY_MIN_MNK` on, 16-bit operands whose rows TMA cannot read are copied into
    rows of a 128-byte pitch first (:func:`~.copies._tma_copies`; A and B in one launch where
    both need it; B only from :data:`COPY_B_MIN_M` rows, :func:`~.copies.copy_route`), and a C
    whose rows TMA cannot write is written by masked stores (:mod:`~.tma_kernel`); from
    :data:`PAD_MIN_MNK` on, fp32 operands, and 16-bit ones with ``tma=False``, are copied into
    zero-padded buffers 16 elements wide, C written through one (:func:`~.copies._padded_call`).
    With ``tma=True`` neither: it refuses an A or B it cannot read. A repeat call goes
    straight from the copies to their plan.
    Where the plain tiles leave the last wave mostly empty (a 16-bit call by TMA on A, B and
    C as given or copied, one split of K, not persistent; :func:`.waves.wide_for`), the first
    call also times composite tiles, ``128 x (128 + 32)``, ``128 x (128 + 64)`` or
    ``(128 + 64) x (128 + 64)`` (:mod:`.wide_kernel`), against the autotuned config and keeps
    the fastest. Where they leave it at most half full after a full wave (with ``split_k``
    None; :func:`.waves.tail_for`), it times a tail split too: the last partial wave's tiles
    split in even shares of their K steps, one program an SM (``TAIL``, :mod:`.tma_kernel`).
    Where a 16-bit B's rows do not all start on 64-byte boundaries (on an sm_90 GPU, with
    ``order="auto"``, from 1024 rows and M*N*K = 2**28; :mod:`.clustered`), the first call
    also times CUTLASS's GEMM in clusters of two CTAs, in each of its tiles
    (:data:`.clustered.CUTLASS_CANDIDATES`), and keeps the fastest.
    The first call of a shape, layout and order autotunes and compiles; later ones launch the
    kernels it chose directly (:mod:`swizzlekit.kernels.triton.plans`); :func:`describe`
    says which.
    """
    options = _options(order, precision, persistent, tma, split_k, order_params)
    print_ = fingerprint((a, b, out), options)
    kept = CLUSTERED.get(print_)
    if kept:                        # its first call timed CUTLASS's clustered GEMM faster, in
        import torch                # these tiles; the door passed it then

        return launch_matmul(a, b, out if out is not None else
                             torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype,
                                         device=a.device), kept)
    repeat = ROUTES.follow(print_, PLANS)
    if repeat is not None:          # a repeat call: the door passed it before (.routes)
        return _repeat(repeat, a, b, out, print_, precision)
    c = _first(a, b, out, order, precision, persistent, tma, split_k, order_params, options,
               print_)
    if (print_ is not None and CLUSTERED.get(print_) is None
            and clustered_route(a, b, c, order, persistent, tma, split_k, order_params)):

        def triton_call():          # the route is kept from the fingerprint's second call
            again = ROUTES.follow(print_, PLANS)
            return (_repeat(again, a, b, c, print_, precision) if again is not None else
                    _first(a, b, c, order, precision, persistent, tma, split_k, order_params,
                           options, print_))

        dtype = str(a.dtype).removeprefix("torch.")
        picked = pick_clustered(triton_call, *(
            functools.partial(cutlass_matmul, a, b, out=c, tiles=tiles)
            for tiles in CUTLASS_CANDIDATES), names=("triton", *CUTLASS_CANDIDATES),
            builds=[functools.partial(build_cutlass, dtype, t) for t in CUTLASS_CANDIDATES])
        CLUSTERED.put(print_, CUTLASS_CANDIDATES[picked - 1] if picked else 0)
    return c


def _repeat(repeat: tuple, a, b, out, print_, precision: str):
    """A repeat call along the ``(route, plan)`` its fingerprint's first call kept."""
    import torch

    route, plan = repeat
    M, N = a.shape[0], b.shape[1]
    c = out if out is not None else torch.empty((M, N), device=a.device, dtype=a.dtype)
    copier = _express(route, print_)
    if copier is not None:      # copies and GEMM on raw addresses: no views, no checks
        return _follow_copies(route, plan, copier, a, b, c)
    if route.pad:
        a2, b2, c2 = _padded_call(a, b, c, precision)
    else:
        a2, b2, c2 = (*_tma_copies(a, b, print_), c) if route.copies else (a, b, c)
    if route.pitch:             # B read from rows of a 128-byte pitch (copies._pitched)
        b2 = _pitched(b2)
    ws, counts = launch_buffers(route.split, route.tail, M, b2.shape[1], a.device, c2,
                                MAX_TILE_AREA)
    if route.kcopy:             # TF32: B's K-major copy (N x K), as _plan made it
        b2 = kmajor_copy(b2)
    elif route.tma and route.b_kmajor:
        b2 = b2.T
    _follow(route, plan, a2, b2, c2, ws, counts)
    return c if c2 is c else c.copy_(c2[:, :N])


def _first(a, b, out, order, precision, persistent, tma, split_k, order_params, options,
           print_):
    """A fingerprint's first call: the door's checks, the copies, the plan and the launch."""
    import torch

    _check(a, b, out, precision)
    _check_flags(persistent, tma)
    M, K = a.shape
    N = b.shape[1]
    check_split(split_k, persistent, M, N)
    c = out if out is not None else torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    if K == 0:
        return c.zero_()
    kernel_order, p = _requested_order(order, order_params)
    on_gpu = a.device.type == "cuda"
    mark = _copy_first(a, b, M, N, K, tma) if on_gpu or _INTERPRET else ""
    if mark:
        if mark == "copies":                            # TMA reads what it can as given
            (a2, b2), c2 = _tma_copies(a, b, print_), c
        else:                                           # every operand 16 elements wide
            a2, b2, c2 = _padded_call(a, b, c, precision)
        copies = fingerprint((a2, b2, c2), options)
        _plan(a2, b2, c2, kernel_order, p, precision, persistent, tma, split_k, copies)
        ROUTES.adopt(print_, copies, mark)              # repeat calls: copies, plan
        return c if c2 is c else c.copy_(c2[:, :N])
    return _plan(a, b, c, kernel_order, p, precision, persistent, tma, split_k, print_)


def _options(order, precision, persistent, tma, split_k, order_params: dict) -> tuple:
    """A call's options as its fingerprint takes them (:func:`.routes.fingerprint`)."""
    return (order, precision, persistent, tma, split_k, *sorted(order_params.items()))


def describe(a, b, order: str = "auto", *, out=None, precision: str = "tf32",
             persistent: bool = False, tma: bool | None = None, split_k: int | None = None,
             **order_params) -> dict | None:
    """How :func:`matmul` with these arguments runs now (the route and plan its earlier calls
    kept): ``kernel`` (tma or pointer), ``config`` (``BMxBNxBK/sS/wW``, or
    ``BMx(BN1+BN2)xBK/sS/wW``, ``(BM1+BM2)x(BN1+BN2)xBK/sS/wW`` for a composite tile),
    ``order`` and its parameter ``p`` (the group or width the kernel takes), ``split_k``,
    ``copies`` ("copies", "pad" or ""), and whether B is read from a pitched or K-major copy
    and C written by masked stores (its rows no 16-byte multiples) or from registers in the
    tiles of :data:`.matmul_configs.C_REGS_TILES`, and whether the last wave's tiles run a tail
    split (``tail_split``, :func:`.waves.tail_for`). ``kernel`` "cutlass": the first call timed
    CUTLASS's clustered GEMM faster (:mod:`.clustered`). None before a route is kept (from a
    fingerprint's second call, on a GPU), or where the caches dropped it."""
    from swizzlekit.kernels.triton.choose import config_label

    _check(a, b, out, precision)                # the door's own checks: operands, flags,
    _check_flags(persistent, tma)               # split and order
    check_split(split_k, persistent, a.shape[0], b.shape[1])
    _requested_order(order, order_params)
    options = _options(order, precision, persistent, tma, split_k, order_params)
    print_ = fingerprint((a, b, out), options)
    kept = CLUSTERED.get(print_)
    if kept:                        # CUTLASS's clustered GEMM (.clustered), its own scheduler
        return described(kept)
    found = ROUTES.follow(print_, PLANS)
    if found is None:
        return None
    route, plan = found
    info = plan.info
    if route.wide:
        config = wide_label(plan.config, info)
    else:
        config = (config_label(plan.config, info["num_stages"], info["num_warps"])
                  if "num_stages" in info and "BLOCK_M" in plan.config else "")
    return {"kernel": "tma" if route.tma else "pointer", "config": config,
            "order": info.get("ORDER", ""), "p": info.get("P"), "split_k": route.split,
            "copies": "pad" if route.pad else "copies" if route.copies else "",
            "b_pitch_copy": route.pitch, "b_kmajor_copy": route.kcopy,
            "c_masked": bool(route.c_ptr) and route.c_ptr != C_REGS,
            "c_registers": route.c_ptr == C_REGS, "tail_split": route.tail}


# ------------------------------------------------------------------------------------ plan
def _plan(a, b, c, kernel_order: str, p: int, precision: str, persistent: bool, tma,
          split_k, print_):
    """The plan of a checked call on operands it can run on as they are: B's major order,
    TMA or pointer loads, the launch signature, and the split of K (timed once per signature
    where ``split_k`` is None, through :func:`_launch`); then :func:`_launch`."""
    import torch

    M, K = a.shape
    N = b.shape[1]
    on_gpu = a.device.type == "cuda"
    # B K-major (a transposed view) is read through its transpose. For TF32 with a row-major
    # B the TMA kernel swaps A and B (_swap_ab); from tf32_copy_min_m() rows a K-major copy of B
    # pays for itself instead (docs/data/bench/tf32_copy/), where TMA then takes A, the copy
    # (rows of K) and C: so a copied call is always a TMA call, as its route assumes.
    b_kmajor = b.stride(0) == 1 and b.stride(1) != 1
    b_op = b.T if b_kmajor else b
    copied = False
    if (a.dtype == torch.float32 and precision == "tf32" and not b_kmajor and tma is not False
            and (on_gpu or _INTERPRET) and M >= tf32_copy_min_m() and K % 4 == 0
            and _tma_ok(a)):
        b_op, b_kmajor, copied = kmajor_copy(b), True, True
    ok = _tma_ok(a, b_op)           # C: by TMA where it can, else by masked stores
    if tma is None:             # the default: TMA where it can, but not on launch-bound calls
        small = on_gpu and not tma_by_size(a.element_size(), M, N, K,
                                           _whole_sectors((a, b_op, c), N, K))
        use_tma = ok and (on_gpu or _INTERPRET) and not small
    else:
        use_tma = tma
    if use_tma and not ok:
        raise SwizzleKitError("tma=True needs a row-major A and B (or B K-major) with "
                              "16-byte aligned rows")
    pitch = (use_tma and not b_kmajor and (on_gpu or _INTERPRET)
             and _pitch_first(b_op, M, N, K))
    if pitch:                   # B's rows straddle L2 lines: read a 128-byte pitch copy
        b_op = _pitched(b_op)
    b_arg = b_op if use_tma else b              # pointer loads read B as given, any strides
    auto_split = split_k is None
    sig = (_signature(a, b_arg, c, kernel_order, p, persistent, precision, use_tma, b_kmajor)
           if on_gpu and not _INTERPRET else None)
    go = (a, b, b_op, b_arg, c, sig, kernel_order, p, precision, persistent, use_tma, b_kmajor,
          pitch, copied)
    split_k = resolve(split_k, SPLITS, sig, M, N, K, persistent,
                      lambda s: _launch(*go, s, None))
    timed = split_k == 1 and sig is not None    # what the first call may time
    tiles = (wide_timed(M, N, K, _sms(a.device)) if timed and WIDE_TILES_ON and wide_route(
        a.element_size(), persistent, use_tma, b_kmajor, _tma_ok(c)) else ())
    tail = (timed and auto_split and TAIL_SPLIT_ON
            and tail_route(a.element_size(), persistent, use_tma,
                          kernel_order == AUTO or kernel_order in FLAT_ORDERS)
            and tail_timed(M, N, K, _sms(a.device)))
    if tiles or tail:       # composite tiles or a tail split may run the last wave faster
        wave = LAST_WAVE.kept(sig, lambda: pick_last_wave(go, tiles, tail, _launch))
        if wave is TAIL:
            return _launch(*go, 1, print_, False, True)
        if wave:
            return _launch_wide(wave, a, b_arg, c, sig, print_, pitch)
    if timed and C_REGS_ON:
        regs = (a.element_size(), precision, use_tma, b_kmajor, persistent, M)
        if c_regs_taken(*regs):
            return _launch(*go, 1, print_, True)    # C from registers (C_REGS), untimed
        if c_regs_timed(*regs):         # fewer rows: timed against the plain plan, first call
            return _launch(*go, 1, print_, REGS.kept(sig, lambda: pick_regs(go, _launch)))
    return _launch(*go, split_k, print_)


def _launch_wide(plan, a, b_arg, c, sig, print_, pitch: bool):
    """Launch a wide plan and keep its route for repeat calls (key: the signature's; ``pitch``:
    ``b_arg`` is B's pitched copy, which each repeat call makes afresh)."""
    key = (*sig, "wide")
    PLANS.put(key, plan)
    if print_ is not None:
        ROUTES.put(print_, Route(key, 1, True, False, pitch=pitch, wide=True))
    launch_wide(plan, a, b_arg, c)
    return c


# ---------------------------------------------------------------------------------- launch
def _launch(a, b, b_op, b_arg, c, sig, kernel_order: str, p: int, precision: str,
            persistent: bool, use_tma: bool, b_kmajor: bool, pitch: bool, kcopy: bool,
            split_k: int, print_, regs: bool = False, tail: bool = False):
    """Launch the plan of ``sig`` and ``split_k`` (kept under ``print_`` for repeat calls),
    or, on the signature's first call, autotune and compile it and keep it. ``regs``: the TMA
    kernel in :data:`.matmul_configs.C_REGS_TILES`, C stored from registers (``C_PTR`` =
    ``C_REGS``); ``tail``: the TMA kernel with a tail split (``TAIL``), one program an SM."""
    M, K = a.shape
    N = b.shape[1]
    on_gpu = a.device.type == "cuda"
    ws, counts = launch_buffers(split_k, tail, M, N, a.device, c, MAX_TILE_AREA)
    mark = ("regs",) if regs else ("tail",) if tail else ()
    key = (*sig, split_k, *mark) if sig is not None else None
    plan = PLANS.get(key) if key is not None else None
    # C's rows not for TMA: masked stores; or C from registers by choice
    c_ptr = C_REGS if regs else use_tma and not _tma_ok(c)
    if plan is not None:
        route = Route(key, split_k, use_tma, b_kmajor, pitch=pitch, kcopy=kcopy, c_ptr=c_ptr,
                      tail=tail)
        if print_ is not None:
            ROUTES.put(print_, route)
        return _follow(route, plan, a, b_arg, c, ws, counts)

    if kernel_order == AUTO:        # the model's pick, on a shape's first call only
        kernel_order, p = _order_args(*_auto_order(a, M, N, K, precision, use_tma, b_kmajor,
                                                   persistent))
    programs = _sms(a.device) * 2 if persistent and on_gpu else 8
    flat_programs = _one_per_sm(a.device)     # flattened configs and tail splits

    def grid(meta):
        if tail:                                        # one program an SM
            return (flat_programs, 1)
        slots = _slots(kernel_order, p, triton.cdiv(M, meta["BLOCK_M"]),
                       triton.cdiv(N, meta["BLOCK_N"]))
        if meta.get("FLAT"):
            return (min(slots, flat_programs), split_k)
        return (min(slots, programs) if persistent else slots, split_k)

    options = dict(ORDER=kernel_order, P=p, PERSISTENT=persistent, NUM_PROGRAMS=programs,
                   PRECISION=precision, SPLIT_K=split_k)
    if use_tma:
        by_tma, by_pointer = _by_tma(a, b_op, c, c_ptr)
        descs = [*_descriptors(by_tma, b_kmajor, {"BLOCK_M": 16, "BLOCK_N": 16,
                                                  "BLOCK_K": 16}), *by_pointer]
        args = (*descs, ws, counts, M, N, K, *c.stride())
        consts = dict(B_KMAJOR=b_kmajor, C_PTR=c_ptr, ELEM_BYTES=a.element_size(), TAIL=tail,
                      **options)
        if tail:
            consts["NUM_PROGRAMS"] = flat_programs
        compiled = _matmul_tma_kernel[grid](*args, **consts)
        named = dict(zip(("a_desc", "b_desc", "c_desc", "ws_ptr", "counts_ptr", "M", "N", "K",
                          "stride_cm", "stride_cn"), args), **consts)
        kernel = _matmul_tma_kernel
    else:
        args = (a, b, c, ws, counts, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                c.stride(0), c.stride(1))
        compiled = _matmul_kernel[grid](*args, **options)
        named = dict(zip(("a_ptr", "b_ptr", "c_ptr", "ws_ptr", "counts_ptr", "M", "N", "K",
                          "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
                          "stride_cn"), args), **options)
        kernel = _matmul_kernel
    if key is not None:
        PLANS.put(key, capture(kernel, compiled, named, grid, n_tensors=5))
    return c


def _follow(route: Route, plan, a, b_arg, c, ws, counts):
    """Launch ``plan`` on A, B as the kernel reads it, and C, the way ``route`` says."""
    if route.wide:                  # the composite-tile kernel (.wide_kernel)
        launch_wide(plan, a, b_arg, c)
    elif route.tma:                 # descriptors encoded once per address set (plans.Plan.tma)
        by_tma, by_pointer = _by_tma(a, b_arg, c, route.c_ptr)
        plan.tma(by_tma, lambda: _descriptors(by_tma, route.b_kmajor, plan.config),
                 *by_pointer, ws, counts)
    else:
        plan(a, b_arg, c, ws, counts)
    return c


# -------------------------------------------------------------------------------- validation
#: Relative Frobenius error bounds against a float64 reference, per precision.
TOLERANCE = {"float16": 1e-2, "bfloat16": 1e-2, "tf32": 1e-3, "ieee": 1e-5}
