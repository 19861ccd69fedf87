"""The four seed posts' cases and published numbers, in one place.

Seed 001 (CTA swizzling for L2 reuse), 002 (the SGEMM ladder), 003 (Triton's grouped order)
and 004 (XOR swizzles for shared-memory banks). The shared-memory cases of seeds 002 and 004
live with the solver (:data:`swizzlekit.smem.CASES`); the numbers the seeds published live
here, and :mod:`swizzlekit.compare` and the report put them beside ours.

>>> SEED003_PUBLISHED
{'row': 90, 'grouped': 54}
>>> SEED001_ORDERS["matmul_swizzle<32,4>"]
('strip', {'width': 4})
"""

from __future__ import annotations

__all__ = ["SEED001_PUBLISHED", "SEED001_ORDERS", "SEED002_PUBLISHED", "SEED003_PUBLISHED",
           "SEED002_LADDER"]

#: Seed 001's published ncu "L2 Hit Rate" (%) on its GPU: (matmul_smem<32>, matmul_swizzle<32,4>).
SEED001_PUBLISHED = {(1024, 1024, 1024): (95.93, 93.37), (2048, 2048, 2048): (51.90, 84.62),
                     (4096, 4096, 4096): (48.98, 84.25), (1024, 1024, 128): (86.20, 96.94)}
#: Seed 001's kernels as orders of 32x32 fp32 tiles (K step 32): matmul_smem<32> launches
#: blockIdx.x fastest along N, matmul_swizzle<32,4> remaps it with the strip swizzle.
SEED001_ORDERS = {"matmul_smem<32>": ("row", {}), "matmul_swizzle<32,4>": ("strip", {"width": 4})}
#: Seed 002's published console table (RTX 4050 Laptop GPU): size -> GFLOP/s of its baseline
#: and of its optimized kernel ("My GEMM"), and the speedup it printed.
SEED002_PUBLISHED = {256: (14.009, 555.096, 13.5555), 512: (605.457, 3185.95, 5.26206),
                     1024: (643.052, 5635.14, 8.76312), 2048: (75.3203, 7625.36, 101.239)}
#: Seed 002's ladder, rung by rung, as ``swizzlekit reproduce seed002`` runs it.
SEED002_LADDER = ("cuda_naive", "cuda_smem", "cuda_sgemmopt", "cuda_bank_free", "cuda_cp_async2",
                  "cuda_cp_async3", "cuda_cp_async4", "cuda_block_swizzle", "cuda_block_strip",
                  "cuda_block_snake", "cuda_block_zlayer")
#: Seed 003's hand count: A and B tile loads of one wave of 9 CTAs over a 9x9 tile grid with
#: 9 K steps, row order against grouped (group 3).
SEED003_PUBLISHED = {"row": 90, "grouped": 54}
