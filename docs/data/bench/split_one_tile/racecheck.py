"""The swapped 256x128x32/s3/w8 TF32 tile in the one-tile path, one call under whatever tool
runs this script (compute-sanitizer's racecheck, say), for one variant:

    shipped   K whole, C stored by TMA: the one path the library lets the tile take
    split     K split 2 ways (wrong sums on the H200 and the H100: probe.py)
    masked    C written by masked stores, K whole (wrong sums on the H100: probe.py)

The tile is forced past the prune and the one-tile rule, as ``probe.py`` forces it; the call
runs at 256x2048x1024 on fresh inputs into a NaN-poisoned output and prints its relative
error against float64 and how many elements are off by more than 1% of the largest.
Usage: compute-sanitizer --tool racecheck python3 racecheck.py VARIANT
"""
import sys

import torch

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.verify import poisoned, poisoned_view

VARIANTS = ("shipped", "split", "masked")
variant = sys.argv[1] if len(sys.argv) > 1 else "shipped"
assert variant in VARIANTS, f"variant {variant!r}; choose one of {VARIANTS}"
kernel = mm._matmul_tma_kernel
configs, prune, heur = list(kernel.configs), kernel.early_config_prune, kernel.fn.values
rule = heur["ONE_TILE"]
tile = [c for c in configs if c.kwargs["SWAP_AB"] and c.kwargs["BLOCK_M"] == 256
        and c.kwargs["BLOCK_N"] == 128 and c.num_stages == 3 and not c.kwargs.get("FLAT")]
m, n, k = 256, 2048, 1024
try:
    kernel.configs, kernel.early_config_prune = tile[:1], None
    heur["ONE_TILE"] = lambda args: not args["PERSISTENT"] and not args["TAIL"] and args["SWAP_AB"]
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    if variant == "masked":
        c, _ = poisoned_view(m, n, torch.float32, "cuda")
    else:
        c = poisoned(m, n, torch.float32, "cuda")
    matmul(a, b, "grouped", out=c, precision="tf32", tma=True,
           split_k=2 if variant == "split" else 1, group=8)
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    bad = int(((c.double() - ref).abs() > 1e-2 * ref.abs().max()).sum())
    rel = ((c.double() - ref).norm() / ref.norm()).item()
    print(f"{variant}: config {tile[0]}, relative error {rel:.4g}, {bad} of {c.numel()} off")
finally:
    kernel.configs, kernel.early_config_prune = configs, prune
    heur["ONE_TILE"] = rule
