"""Shared memory: GF(2) algebra, layouts, the bank model, access patterns, analyzer, solver.

Imports only numpy and the standard library.

>>> from swizzlekit.smem import solve
>>> print(solve(8, 8, elem_bytes=16, accesses=["row", "col"]).cute)
Swizzle<3,0,3>
"""

from swizzlekit.smem.access import (ACCESS_FORMS, AccessSpec, Instruction, ldmatrix,
                                    parse_access, thread_block)
from swizzlekit.smem.analyze import Analysis, AccessReport, analyze
from swizzlekit.smem.banks import (H200_BANKS, BankGeometry, bank_conflicts, phases,
                                   set_wavefronts, wavefronts)
from swizzlekit.smem.cases import CASES, GEMM_TILES, Case, case
from swizzlekit.smem.emit import cuda_function, cute_type, triton_expr
from swizzlekit.smem.layouts import (LinearLayout, RowMajor, Stacked, Swizzle, Swizzled,
                                     TileLayout, TmaSwizzle, TritonShared, XorCols)
from swizzlekit.smem.rows import Interleaved
from swizzlekit.smem.permuted import Permuted
from swizzlekit.smem.rowxor import RowXor
from swizzlekit.smem.solver import Solution, solve

__all__ = [
    "ACCESS_FORMS", "AccessSpec", "Instruction", "ldmatrix", "parse_access", "thread_block",
    "Analysis", "AccessReport", "analyze",
    "H200_BANKS", "BankGeometry", "bank_conflicts", "phases", "set_wavefronts", "wavefronts",
    "CASES", "GEMM_TILES", "Case", "case",
    "cuda_function", "cute_type", "triton_expr",
    "LinearLayout", "RowMajor", "Swizzle", "Swizzled", "TileLayout", "TmaSwizzle",
    "TritonShared", "XorCols", "Stacked", "Interleaved", "RowXor", "Permuted",
    "Solution", "solve",
]
