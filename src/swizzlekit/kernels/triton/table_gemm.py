"""Kernel (the lab's): a Triton GEMM whose tile order is read from a table in memory.

Every CTA order runs through one compiled kernel per tile config: CTA ``pid`` computes the
output tile ``(order[pid, 0], order[pid, 1])``. Nothing else changes between orders, so
differences in L2 hit rate and time come from the order alone. This is the kernel behind the
L2 model's hardware tables (``swizzlekit lab l2 --out DIR``).

A *persistent* launch starts ``programs`` CTAs (by default as many as fit on the GPU at once)
and program ``p`` computes the tiles ``order[p], order[p + programs], ...`` one after another.

Reads top to bottom: configs, kernel, launcher (with the kernel's own residency), validation.

>>> TILE_CONFIGS["128x128x64"].tile
(128, 128, 64)
>>> tile_config("96x96x64")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: unknown tile config '96x96x64'; valid: 64x64x64, 128x128x64, 128x128x32, 128x256x64, 256x128x64, 64x128x64, 128x128x128
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import triton
import triton.language as tl

from swizzlekit.errors import SwizzleKitError

__all__ = ["TileConfig", "TILE_CONFIGS", "DTYPES", "CONFIG", "tile_config", "order_table",
           "table_gemm", "compiled", "resources", "default_programs"]


# ----------------------------------------------------------------------------------- configs
@dataclass(frozen=True)
class TileConfig:
    """A tile shape and its launch: ``BLOCK_M x BLOCK_N x BLOCK_K``, warps, pipeline stages."""
    bm: int
    bn: int
    bk: int
    warps: int
    stages: int

    @property
    def tile(self) -> tuple[int, int, int]:
        return (self.bm, self.bn, self.bk)

    @property
    def name(self) -> str:
        return f"{self.bm}x{self.bn}x{self.bk}"

    def meta(self) -> dict:
        return dict(BLOCK_M=self.bm, BLOCK_N=self.bn, BLOCK_K=self.bk, num_warps=self.warps,
                    num_stages=self.stages)


#: The tile configs the L2 tables are measured with. Stages and warps set the shared memory
#: and registers, and so the residency (1 to 4 CTAs per SM on the H200 for 2-byte elements;
#: ``resources`` reports the compiled kernel's own).
TILE_CONFIGS: dict[str, TileConfig] = {c.name: c for c in (
    TileConfig(64, 64, 64, 4, 3),
    TileConfig(128, 128, 64, 8, 3),
    TileConfig(128, 128, 32, 8, 3),
    TileConfig(128, 256, 64, 8, 3),
    TileConfig(256, 128, 64, 8, 3),
    TileConfig(64, 128, 64, 4, 3),
    TileConfig(128, 128, 128, 8, 3),     # for 1-byte elements: 128-byte rows of K
)}
#: The config of the original table (every run before 2026-11-22).
CONFIG = TILE_CONFIGS["128x128x64"].meta()
#: Element types by name: bytes per element, and the torch dtype's name.
DTYPES = {"fp16": (2, "float16"), "bf16": (2, "bfloat16"), "fp32": (4, "float32"),
          "fp8": (1, "float8_e4m3fn")}


def tile_config(name: str) -> TileConfig:
    if name not in TILE_CONFIGS:
        raise SwizzleKitError(f"unknown tile config {name!r}; valid: " + ", ".join(TILE_CONFIGS))
    return TILE_CONFIGS[name]


# ------------------------------------------------------------------------------------ kernel
@triton.jit
def _multiple(x, ALIGN: tl.constexpr):
    # x, which the launcher has checked is a multiple of ALIGN, as Triton can see it is one
    if ALIGN > 1:
        x = x // ALIGN * ALIGN
    return x


@triton.jit
def _tile(a_ptr, b_ptr, c_ptr, pid_m, pid_n, M, N, K, stride_am, stride_ak, stride_bk,
          stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
          BLOCK_K: tl.constexpr, ALIGN: tl.constexpr, B_KMAJOR: tl.constexpr):
    # ALIGN > 1 (see _hints): K, N and the row strides are multiples of ALIGN elements, which
    # Triton's own specialization (multiples of 16) misses. Without it a ragged K or N masks
    # the loads element by element (2-byte ld.global through registers, which spill); with
    # it they take the 16-byte cp.async of the aligned kernel. ALIGN = 1: the code is as it
    # was, the aligned kernel's PTX unchanged.
    K, N = _multiple(K, ALIGN), _multiple(N, ALIGN)
    stride_am, stride_cm = _multiple(stride_am, ALIGN), _multiple(stride_cm, ALIGN)
    if B_KMAJOR:
        stride_bn = _multiple(stride_bn, ALIGN)
    else:
        stride_bk = _multiple(stride_bk, ALIGN)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left),
                    other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


# One CTA per tile: the kernel of every L2 table (unchanged since the first table, 2026-11-21,
# except that since 2026-11-23 a ragged K or N whose rows are 16-byte multiples loads as the
# aligned kernel does: ALIGN; an aligned launch compiles the same PTX as before. A loop
# around it changes its registers, shared memory and timing).
@triton.jit
def order_table_gemm(a_ptr, b_ptr, c_ptr, order_ptr, M, N, K,
                     stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     ALIGN: tl.constexpr, B_KMAJOR: tl.constexpr):
    pid = tl.program_id(0)
    _tile(a_ptr, b_ptr, c_ptr, tl.load(order_ptr + 2 * pid), tl.load(order_ptr + 2 * pid + 1),
          M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
          BLOCK_M, BLOCK_N, BLOCK_K, ALIGN, B_KMAJOR)


# A persistent grid: program p computes tiles p, p + PROGRAMS, ... of the order.
@triton.jit
def order_table_gemm_persistent(a_ptr, b_ptr, c_ptr, order_ptr, M, N, K, stride_am,
                                stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                                TILES, PROGRAMS, BLOCK_M: tl.constexpr,
                                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                ALIGN: tl.constexpr, B_KMAJOR: tl.constexpr):
    for slot in range(tl.program_id(0), TILES, PROGRAMS):
        _tile(a_ptr, b_ptr, c_ptr, tl.load(order_ptr + 2 * slot),
              tl.load(order_ptr + 2 * slot + 1), M, N, K, stride_am, stride_ak, stride_bk,
              stride_bn, stride_cm, stride_cn, BLOCK_M, BLOCK_N, BLOCK_K, ALIGN, B_KMAJOR)


# ---------------------------------------------------------------------------------- launcher
def order_table(order: np.ndarray, device) -> "torch.Tensor":  # noqa: F821
    """The order as the int32 table the kernel reads (upload it once, outside timed loops)."""
    import torch

    return torch.as_tensor(np.ascontiguousarray(order, dtype=np.int32).reshape(-1), device=device)


def _problem(a, b, order, config: str):
    """The checks both launchers make at the door: ``(config, M, N, K, order table, tiles,
    C's dtype)``."""
    import torch

    cfg = tile_config(config)
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise SwizzleKitError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} do not multiply")
    M, K = a.shape
    N = b.shape[1]
    tiles = (-(-M // cfg.bm)) * (-(-N // cfg.bn))
    if a.dtype == torch.float8_e4m3fn and b.stride(0) != 1:
        raise SwizzleKitError("fp8 B must be K-major: pass bt.T for an N x K tensor bt")
    out_dtype = torch.float16 if a.dtype == torch.float8_e4m3fn else a.dtype
    table = order if isinstance(order, torch.Tensor) else order_table(order, a.device)
    if table.numel() != 2 * tiles:
        raise SwizzleKitError(f"the order has {table.numel() // 2} tiles; {M}x{N} in "
                              f"{cfg.name} tiles has {tiles}")
    return cfg, M, N, K, table, tiles, out_dtype


def _programs(programs: int | None) -> int | None:
    from swizzlekit.errors import check_int

    return None if programs is None else check_int("programs", programs)


def table_gemm(a, b, order, out=None, *, config: str = "128x128x64", persistent: bool = False,
               programs: int | None = None):
    """``a @ b`` with CTA ``i`` computing output tile ``order[i]`` (torch tensors, one device).

    ``order``: an ``(n, 2)`` numpy order over the tile grid of ``config``, or a table from
    :func:`order_table`. fp8 (e4m3) B must be K-major (``b = bt.T`` for an N x K ``bt``), as
    Hopper's fp8 tensor-core instructions take it. ``persistent``: ``programs`` CTAs (default:
    the SMs times the kernel's residency) walk the order with a stride. Returns ``out``.
    """
    return _run(a, b, order, out, config, persistent, programs)[0]


def _run(a, b, order, out, config: str, persistent: bool, programs: int | None):
    """:func:`table_gemm`'s work: ``(C, the compiled kernel the launch ran)``."""
    import torch

    cfg, M, N, K, table, tiles, out_dtype = _problem(a, b, order, config)
    c = out if out is not None else torch.empty((M, N), device=a.device, dtype=out_dtype)
    programs = _programs(programs)
    if persistent and programs is None:
        programs = default_programs(config, str(a.dtype).replace("torch.", ""), (M, N, K),
                                    a.device)
    programs = min(programs, tiles) if persistent else None
    return c, _launch(a, b, c, table, M, N, K, cfg, tiles, programs)


def _launch(a, b, c, table, M, N, K, cfg: TileConfig, tiles: int, programs: int | None,
            hints: dict | None = None):
    """Launch the kernel on ``table`` (``tiles`` slots): a persistent grid of ``programs``
    CTAs, or one CTA per tile where None. ``hints``: :func:`_hints` (default: the operands'
    own). Returns Triton's compiled kernel."""
    args = (a, b, c, table, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1))
    meta = _meta(cfg, a, b, c, K, N, hints)
    if programs is not None:
        return _kernel(True)[(programs,)](*args, tiles, programs, **meta)
    return _kernel(False)[(tiles,)](*args, **meta)


def _meta(cfg: TileConfig, a, b, c, K: int, N: int, hints: dict | None = None) -> dict:
    """The launch's constexprs: the config's, and ``hints`` (default: the operands' own)."""
    return {**cfg.meta(), **(hints or _hints(K, N, a.stride(), b.stride(), c.stride(),
                                             a.element_size()))}


def _hints(K: int, N: int, a_strides, b_strides, c_strides, elem_bytes: int) -> dict:
    """The kernel's ``ALIGN`` and ``B_KMAJOR``: the largest power of two, up to 16 bytes of
    elements, that divides ``K``, ``N`` and the row strides of A, B and C, where Triton does
    not already know them to be multiples of 16 (ALIGN = 1 there, and for any operand whose
    rows are not contiguous); and whether B is K-major.

    >>> _hints(3000, 7000, (3000, 1), (7000, 1), (7000, 1), 2)   # ragged, 16-byte rows
    {'ALIGN': 8, 'B_KMAJOR': False}
    >>> _hints(1000, 3000, (1000, 1), (1, 1000), (3000, 1), 1)   # fp8, B K-major: 8-byte rows
    {'ALIGN': 8, 'B_KMAJOR': True}
    >>> _hints(4096, 4096, (4096, 1), (4096, 1), (4096, 1), 2)   # aligned: Triton knows
    {'ALIGN': 1, 'B_KMAJOR': False}
    >>> _hints(3001, 4096, (3001, 1), (4096, 1), (4096, 1), 2)   # odd K: nothing to say
    {'ALIGN': 1, 'B_KMAJOR': False}
    """
    none = {"ALIGN": 1, "B_KMAJOR": False}
    if a_strides[1] != 1 or c_strides[1] != 1 or 1 not in b_strides:
        return none
    kmajor = b_strides[1] != 1
    values = (K, N, a_strides[0], b_strides[1] if kmajor else b_strides[0], c_strides[0])
    if all(v % 16 == 0 for v in values):
        return none
    align = 16 // elem_bytes
    while align > 1 and any(v % align for v in values):
        align //= 2
    return {"ALIGN": align, "B_KMAJOR": kmajor} if align > 1 else none


def _kernel(persistent: bool):
    return order_table_gemm_persistent if persistent else order_table_gemm


def _like(value: int, near: int) -> int:
    """A value that Triton specializes as it does ``value`` (equal to 1, a multiple of 16, or
    neither), at least ``near``: the launch arguments of a stand-in problem.

    >>> _like(5000, 128), _like(4096, 128), _like(1, 64)
    (136, 128, 1)
    """
    if value == 1:
        return 1
    base = -(-near // 16) * 16
    return base if value % 16 == 0 else base + 8


def _stand_in(config: str, shape, programs, dtype: str = "float16"):
    """``(m, n, k, tiles, programs, hints)`` of a small problem whose every integer argument
    Triton specializes as it does those of ``shape`` (default: aligned, 32 x 32 tiles) and
    ``programs`` (default: 132), capped at the tile count as :func:`_run` caps it; ``hints``
    are the launch's own (:func:`_hints`, for contiguous operands of ``dtype``, a torch dtype
    name), as a ``(ALIGN, B_KMAJOR)`` pair. The stand-in's sizes are multiples of ALIGN too."""
    cfg = tile_config(config)
    M, N, K = shape if shape is not None else (32 * cfg.bm, 32 * cfg.bn, 2 * cfg.bk)
    m, n, k = _like(M, cfg.bm), _like(N, cfg.bn), _like(K, 2 * cfg.bk)
    tiles = (-(-M // cfg.bm)) * (-(-N // cfg.bn))
    programs = min(programs if programs is not None else 132, tiles)
    size = {name: size for size, name in DTYPES.values()}[dtype]
    hints = _hints(K, N, (K, 1), (1, K) if dtype == "float8_e4m3fn" else (N, 1), (N, 1), size)
    return m, n, k, _like(tiles, 16), _like(programs, 16), (hints["ALIGN"], hints["B_KMAJOR"])


@functools.lru_cache(maxsize=None)
def compiled(config: str, dtype: str = "float16", persistent: bool = False,
             stand_in: tuple | None = None):
    """The kernel compiled for ``config`` and ``dtype`` (a torch dtype name), launched once on
    the small problem ``stand_in`` (:func:`_stand_in`; default: an aligned one): Triton's
    compiled kernel (``n_regs``, ``n_spills``, ``metadata.shared``, ``function``). Needs a GPU.
    """
    import torch

    m, n, k, tiles, programs, (align, kmajor) = stand_in or _stand_in(config, None, None, dtype)
    dt = getattr(torch, dtype)
    a = torch.randn(m, k, device="cuda").to(dt)
    b = (torch.randn(n, k, device="cuda").to(dt).T if dt == torch.float8_e4m3fn
         else torch.randn(k, n, device="cuda").to(dt))
    c = torch.empty(m, n, device="cuda",
                    dtype=torch.float16 if dt == torch.float8_e4m3fn else dt)
    tiles = tiles if persistent else 1
    return _launch(a, b, c, order_table(np.zeros((tiles, 2)), "cuda"), m, n, k,
                   tile_config(config), tiles, programs if persistent else None,
                   {"ALIGN": align, "B_KMAJOR": kmajor})


@functools.lru_cache(maxsize=None)
def resources(config: str, dtype: str = "float16", persistent: bool = False,
              gpu: str = "h200", *, shape: tuple[int, int, int] | None = None,
              programs: int | None = None) -> dict:
    """The compiled kernel's own registers, spills, shared memory and threads, and its
    residency (:func:`swizzlekit.gpus.residency` on preset ``gpu``). Needs a GPU.

    ``shape`` ``(M, N, K)`` and, for a persistent grid, ``programs``: the launch to report
    on. Triton compiles one kernel per specialization of its integer arguments (equal to 1, a
    multiple of 16, or neither), and they differ: a persistent grid whose tile and program
    counts are 1 compiles without its loop, and where ``K`` or ``N`` is not a multiple of 8
    (16-bit; 16 bytes of elements in general: :func:`_hints`) the loads go by ``ld.global``
    instead of ``cp.async`` and spill on the H200. Without ``shape``: an aligned problem of
    32 x 32 tiles, and a persistent grid of 132 programs."""
    from swizzlekit.gpus import residency

    if shape is not None:
        shape = tuple(int(x) for x in shape)
    kernel = compiled(config, dtype, persistent, _stand_in(config, shape, programs, dtype))
    threads = tile_config(config).warps * 32
    regs, smem = int(kernel.n_regs), int(kernel.metadata.shared)
    return {"config": config, "dtype": dtype, "threads": threads, "regs_per_thread": regs,
            "spill_bytes": int(kernel.n_spills), "smem_bytes": smem,
            "ctas_per_sm": residency(gpu, threads, regs, smem)}


def default_programs(config: str, dtype: str, shape: tuple[int, int, int], device=0) -> int:
    """A persistent grid's program count where none is given: ``device``'s SMs times the
    residency of the persistent kernel that ``shape`` compiles (:func:`resources`). Needs a
    GPU."""
    import torch

    sms = torch.cuda.get_device_properties(device).multi_processor_count
    return sms * resources(config, dtype, True, shape=tuple(shape))["ctas_per_sm"]


# -------------------------------------------------------------------------------- validation
# lab.verify.check_table_gemm compares the kernel with a float64 product on fresh random
# inputs, the output poisoned first (the lab checks every measured run with it).
