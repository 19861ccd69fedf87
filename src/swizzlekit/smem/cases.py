"""Built-in problems: every case of seed 004, and the shared-memory tiles of seed 002.

Seed 004 draws 8 banks; on real hardware that is a 128-byte wavefront of 16-byte elements
(8 per wavefront), so its tiles are given here with ``elem_bytes=16``: an 8x8 tile of
16-byte elements is an 8x64 fp16 tile read in 8-half vectors.

>>> [c.name for c in CASES][:2]
['8x8 rows and columns', '8x32 rows and columns']
>>> case("8x24 rows and columns").seed_answer
'row * 24 + (row ^ col)'
"""

from __future__ import annotations

from dataclasses import dataclass

from swizzlekit.errors import SwizzleKitError

__all__ = ["Case", "CASES", "GEMM_TILES", "case"]


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    rows: int
    cols: int
    elem_bytes: int
    accesses: tuple[str, ...]
    seed_answer: str
    note: str = ""


CASES: tuple[Case, ...] = (
    Case("8x8 rows and columns", "seed 004", 8, 8, 16, ("row", "col"), "Swizzle<3,0,3>"),
    Case("8x32 rows and columns", "seed 004", 8, 32, 16, ("row", "col"), "Swizzle<3,0,5>"),
    Case("8x4 by column", "seed 004", 8, 4, 16, ("row", "col"), "Swizzle<2,0,3>"),
    Case("8x4 by column, 2x4 and 4x2 blocks", "seed 004", 8, 4, 16,
         ("row", "col", "block:2x4", "block:4x2"), "Swizzle<3,0,2> (CuTe forbids it)"),
    Case("8x8 in 4x2 blocks", "seed 004", 8, 8, 16, ("row", "block:4x2"), "Swizzle<2,1,2>"),
    Case("8x8 in 4x2 blocks of every other row", "seed 004", 8, 8, 16,
         ("row", "block:4x2:stride=2x1"), "Swizzle<2,1,3>"),
    Case("8x24 rows and columns", "seed 004", 8, 24, 16, ("row", "col"),
         "row * 24 + (row ^ col)"),
    Case("8x9 in 4x2 blocks", "seed 004", 8, 9, 16, ("block:4x2",),
         "view as 4x18 (two rows as one)"),
    Case("SGEMM B tile 8x128 fp32 (sgemmopt float4 reads)", "seed 002", 8, 128, 4,
         ("row", "block:1x32:vec=4:stride=1x8"), "z-order lanes over 4x4 reads (gemm_bank_free)",
         "each thread reads 8 consecutive floats as two float4: a quarter-warp spans 256 B"),
    Case("SGEMM A^T tile 8x128 fp32 (sgemmopt float4 reads)", "seed 002", 8, 128, 4,
         ("row", "block:1x32:vec=4:stride=1x8"), "z-order lanes over 4x4 reads (gemm_bank_free)",
         "A is stored transposed, so its reads have the shape of B's"),
    Case("WMMA TF32 A tile 128x32 fp32 (m16n8k8 fragments)", "seed 002", 128, 32, 4,
         ("row", "block:8x4"), "not given",
         "cp.async writes 16-byte row segments; a fragment load reads an 8x4 block"),
    Case("WMMA TF32 B tile 32x128 fp32 (m16n8k8 fragments)", "seed 002", 32, 128, 4,
         ("row", "block:4x8"), "not given",
         "a B fragment load reads 4 rows of 8 consecutive floats"),
    Case("SGEMM warp-tiled A^T tile 8x128 fp32 (transposing stores)", "swizzlekit", 8, 128, 4,
         ("row", "block:2x16:stride=4x1"), "not in a seed (cuda_warptile, BK=8)",
         "a warp stores one float of each of 16 rows of A, for 2 k-groups 4 rows apart; the "
         "lanes then read rows back as float4"),
    Case("SGEMM warp-tiled A^T tile 16x128 fp32 (transposing stores)", "swizzlekit", 16, 128,
         4, ("row", "block:4x8:stride=4x1"), "not in a seed (cuda_warptile, BK=16)",
         "the same with BK=16: 8 rows of A, 4 k-groups"),
)

#: Shared-memory tiles of common GEMM configurations (the report's table): each precision,
#: 4-, 8- and 16-byte accesses, and ldmatrix. ``source`` is the precision; ``seed_answer``
#: the access that reads the tile.
GEMM_TILES: tuple[Case, ...] = (
    Case("fp16/bf16 128x64 tile (128-byte rows)", "fp16/bf16", 128, 64, 2, ("row", "block:8x8"),
         "ldmatrix (8 rows of 16 bytes per phase)",
         "cp.async or TMA writes 16-byte row segments; ldmatrix reads 8x8 matrices"),
    Case("fp16/bf16 128x32 tile (64-byte rows)", "fp16/bf16", 128, 32, 2, ("row", "block:8x8"),
         "ldmatrix", "a K block of 32 halves"),
    Case("fp16/bf16 64x16 tile (32-byte rows)", "fp16/bf16", 64, 16, 2, ("row", "block:8x8"),
         "ldmatrix", "a K block of 16 halves: one mma k-step"),
    Case("fp16/bf16 64x64 tile, 8-byte column-block reads", "fp16/bf16", 64, 64, 2,
         ("row", "block:16x4:vec=4"), "8-byte loads (4 halves) down 16 rows",
         "a fragment read without ldmatrix"),
    Case("tf32 A tile 128x32 (m16n8k8 fragments)", "tf32", 128, 32, 4, ("row", "block:8x4"),
         "4-byte loads of an 8x4 block", "WMMA/mma.sync TF32 A operand"),
    Case("tf32 B tile 32x128 (m16n8k8 fragments)", "tf32", 32, 128, 4, ("row", "block:4x8"),
         "4-byte loads of a 4x8 block", "WMMA/mma.sync TF32 B operand"),
    Case("fp32 8x128 tile, float4 reads (SIMT SGEMM)", "fp32", 8, 128, 4,
         ("row", "block:1x32:vec=4:stride=1x8"), "16-byte loads, two per thread, 8 floats apart",
         "seed 002's sgemmopt"),
    Case("fp32 32x64 tile, float2 column-block reads", "fp32", 32, 64, 4,
         ("row", "block:16x2:vec=2"), "8-byte loads down 16 rows", ""),
    Case("fp32 64x32 tile, column reads (transposing loads)", "fp32", 64, 32, 4, ("row", "col"),
         "4-byte loads down a column", ""),
)


def case(name: str) -> Case:
    """The built-in case of that name; the error lists the valid names."""
    for c in CASES:
        if c.name == name:
            return c
    raise SwizzleKitError(f"unknown case {name!r}; valid cases: " + "; ".join(c.name for c in CASES))
