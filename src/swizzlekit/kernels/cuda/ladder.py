"""Seed 002's SGEMM ladder (and seed 001's kernels) as a registry of CUDA kernels.

Each rung names its source file, its template instantiation, its launch shape, and what it
demonstrates. :func:`build` compiles them with NVRTC (no GPU needed); :func:`run` launches one
on torch tensors through the CUDA driver API (cuda.bindings), on torch's current stream.

>>> [r.name for r in RUNGS][:3]
['cuda_naive', 'cuda_smem', 'cuda_sgemmopt']
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.cuda.launch import function, i32, launch, ptr
from swizzlekit.kernels.cuda.nvrtc import Compiled, compile_cuda

__all__ = ["Rung", "RUNGS", "rung", "expressions", "build", "run", "wmma_smem"]

_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Rung:
    name: str
    source: str                          # file next to this module
    expression: str                      # the kernel (template instantiation) to launch
    block: tuple[int, int]
    tile: tuple[int, int]                # output tile per block (rows, cols)
    demonstrates: str
    vec4: Callable[[int, int, int], bool] | None = None   # pick the float4 variant
    order: str = ""                      # block swizzle: the template's ORDER, P
    tolerance: float = 1e-5              # relative error bound against float64 (TF32: 1e-3)
    dynamic_smem: int = 0                # bytes of dynamic shared memory per block
    grid: str = "1d"                     # "1d": one block per tile, flat; "2d": (tiles_n,
                                         # tiles_m); "zlayer": seed 002's z-layer launch grid

    def launch_grid(self, m: int, n: int) -> tuple[int, int, int]:
        tm, tn = -(-m // self.tile[0]), -(-n // self.tile[1])
        if self.grid == "2d":
            return (tn, tm, 1)
        if self.grid == "zlayer":       # ceil(tiles_n / 2) * tiles_m * 2 blocks
            return (-(-tn // 2) * tm * 2, 1, 1)
        return (tn * tm, 1, 1)


def _aligned(m: int, n: int, k: int) -> bool:
    return k % 4 == 0 and n % 4 == 0


def wmma_smem(stages: int, bk: int) -> int:
    """Dynamic shared memory of ``sgemm_wmma_tf32<stages, bk, ...>``: stages x (A 128 x (bk+4)
    + B bk x 132) floats."""
    return stages * (128 * (bk + 4) + bk * 132) * 4


#: The WMMA rung's pipeline: stages and BK (chosen on the H200, docs/sgemm.md).
WMMA_STAGES, WMMA_BK = 2, 32


_REG = "sgemm_reg<128,128,8,8,8,{swz},{vec}{order}>"
#: Block swizzles: rung name -> template ORDER,P (see sgemm.cu's block_tile).
_ORDERS = {"cuda_block_swizzle": ",1,8", "cuda_block_strip": ",2,4", "cuda_block_snake": ",3,1",
           "cuda_block_zlayer": ",4,2"}
RUNGS: tuple[Rung, ...] = (
    Rung("cuda_naive", "sgemm.cu", "sgemm_naive", (32, 8), (8, 32),
         "seed 002's baseline: one thread per output, straight from global memory", grid="2d"),
    Rung("cuda_smem", "sgemm.cu", "sgemm_smem<32>", (32, 32), (32, 32),
         "shared-memory tiling (32x32 tiles)", grid="2d"),
    Rung("cuda_sgemmopt", "sgemm.cu", _REG, (256, 1), (128, 128),
         "seed 002's sgemmopt: 128x128x8 tiles, 8x8 per thread, A transposed, float4, "
         "unrolled, double-buffered (2-way bank conflicts on its shared-memory reads)",
         _aligned),
    Rung("cuda_bank_free", "sgemm.cu", _REG, (256, 1), (128, 128),
         "sgemmopt with the layout swizzlekit.smem.solve chose for its tiles: Swizzle<1,2,3>",
         _aligned),
    Rung("cuda_cp_async2", "sgemm.cu", "sgemm_async<2,{vec}>", (256, 1), (128, 128),
         "bank_free with B loaded by cp.async, 2 stages", _aligned),
    Rung("cuda_cp_async3", "sgemm.cu", "sgemm_async<3,{vec}>", (256, 1), (128, 128),
         "the same, 3 stages (the seed found 3 slower than 2 and 4)", _aligned),
    Rung("cuda_cp_async4", "sgemm.cu", "sgemm_async<4,{vec}>", (256, 1), (128, 128),
         "the same, 4 stages", _aligned),
    Rung("cuda_block_swizzle", "sgemm.cu", _REG, (256, 1), (128, 128),
         "bank_free with a block swizzle: the grouped order of swizzlekit.cta (group 8)",
         _aligned),
    Rung("cuda_block_strip", "sgemm.cu", _REG, (256, 1), (128, 128),
         "bank_free with seed 001's strip swizzle (width 4), from swizzlekit.cta", _aligned),
    Rung("cuda_block_snake", "sgemm.cu", _REG, (256, 1), (128, 128),
         "bank_free with seed 002's snake order", _aligned),
    Rung("cuda_block_zlayer", "sgemm.cu", _REG, (256, 1), (128, 128),
         "bank_free with seed 002's z-layer block swizzle (2 layers)", _aligned, grid="zlayer"),
    Rung("cuda_wmma_tf32", "wmma_tf32.cu",
         f"sgemm_wmma_tf32<{WMMA_STAGES},{WMMA_BK},1,8,{{vec}}>", (256, 1), (128, 128),
         f"tensor cores: WMMA TF32 m16n16k8 on 128x128x{WMMA_BK} tiles, a {WMMA_STAGES}-stage "
         "cp.async pipeline, grouped block swizzle (mma.sync on sm_90)",
         _aligned, tolerance=1e-3, dynamic_smem=wmma_smem(WMMA_STAGES, WMMA_BK)),
    Rung("cuda_warptile", "sgemm.cu", "sgemm_warp<8,4,1,0,1,{vec}>", (256, 1), (128, 256),
         "past the seed: 128x256x8 block tiles, 32x128 warp tiles of 4x4 sub-tiles per lane "
         "(one wavefront per shared read), A^T under the solver's Swizzle<1,4,5>", _aligned),
    Rung("cuda_seed001_smem", "seed001.cu", "matmul_smem<32>", (32, 32), (32, 32),
         "seed 001's matmul_smem<32>", grid="2d"),
    Rung("cuda_seed001_swizzle", "seed001.cu", "matmul_swizzle<32,4>", (32, 32),
         (32, 32), "seed 001's matmul_swizzle<32,4> (strip swizzle of the block index)",
         grid="2d"),
)


def rung(name: str) -> Rung:
    for r in RUNGS:
        if r.name == name:
            return r
    raise SwizzleKitError(f"unknown CUDA kernel {name!r}; valid: " + ", ".join(r.name for r in RUNGS))


def expressions(r: Rung) -> list[str]:
    if "{vec}" not in r.expression:
        return [r.expression]
    if "{swz}" not in r.expression:
        return [r.expression.format(vec=v) for v in ("true", "false")]
    swz = "false" if r.name == "cuda_sgemmopt" else "true"
    order = _ORDERS.get(r.name, "")
    return [r.expression.format(swz=swz, vec=v, order=order) for v in ("true", "false")]


def build(arch: str = "sm_90", names: list[str | Rung] | None = None) -> dict[str, Compiled]:
    """Compile every rung (or ``names``: rung names or :class:`Rung` objects) for ``arch``:
    file -> compiled module."""
    chosen = [n if isinstance(n, Rung) else rung(n) for n in names] if names else list(RUNGS)
    by_file: dict[str, list[str]] = {}
    for r in chosen:
        by_file.setdefault(r.source, []).extend(expressions(r))
    from swizzlekit.cta.cuda import cuda_source

    prelude = cuda_source() + (_HERE / "cp_async.cuh").read_text()
    return {src: compile_cuda(prelude + (_HERE / src).read_text(), sorted(set(exprs)),
                              arch=arch, filename=Path(src).name)
            for src, exprs in by_file.items()}


@functools.lru_cache(maxsize=None)
def _function(r: Rung, expr: str, arch: str):
    """The loaded kernel, compiled (or read from the NVRTC cache) once per process."""
    return function(build(arch, [r])[r.source], expr, r.dynamic_smem)


def run(name: str | Rung, a, b, out=None, **_):
    """``a @ b`` by the rung ``name`` (or a :class:`Rung`; fp32, one CUDA device)."""
    import torch

    r = name if isinstance(name, Rung) else rung(name)
    if a.dtype != torch.float32 or b.dtype != torch.float32:
        raise SwizzleKitError(f"{r.name} is an fp32 kernel; got {a.dtype} and {b.dtype}")
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise SwizzleKitError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} do not multiply")
    if not (a.is_cuda and b.is_cuda):
        raise SwizzleKitError(f"{r.name} runs on a CUDA device")
    a, b = a.contiguous(), b.contiguous()
    m, k = a.shape
    n = b.shape[1]
    c = out if out is not None else torch.empty(m, n, device=a.device, dtype=a.dtype)
    if c.shape != (m, n) or not c.is_contiguous():
        raise SwizzleKitError(f"out must be a contiguous {m}x{n} tensor")
    major, minor = torch.cuda.get_device_capability(a.device)
    exprs = expressions(r)
    expr = exprs[0] if len(exprs) == 1 or (r.vec4 and r.vec4(m, n, k)) else exprs[1]
    fn = _function(r, expr, f"sm_{major}{minor}")
    abc = [ptr(a), ptr(b), ptr(c)]
    mnk = [i32(m), i32(n), i32(k)]
    # seed 001's kernels take (A, B, C, M, N, K); the ladder's take (M, N, K, A, B, C)
    args = abc + mnk if r.source == "seed001.cu" else mnk + abc
    launch(fn, r.launch_grid(m, n), r.block, args, r.dynamic_smem, a.device)
    return c
