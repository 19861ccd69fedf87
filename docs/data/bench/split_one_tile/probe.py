"""Where the H200's wrong TF32 sums of 2026-11-27 (commit e9f671c) come from: the swapped
256x128x32/s3/w8 TMA tile with K split 2 ways, forced alone past the prune, with the
one-tile-a-program path (``ONE_TILE``) on as it was then, and off (the tile loop); and the
one-tile path with C written by masked stores from registers (``one_tile_c_ptr``: an output
whose rows TMA cannot store, so ``C_PTR``), which takes C's staging tile out of the path.

For each variant, shape and split, three calls on fresh inputs into poisoned outputs; each
output is compared with float64 and, element by element, with the split's partial sums, to
say what a wrong element holds: one split's partial (the other's never added), a stale sum
of the call before, or something else. One JSON line a call.
Usage: python3 probe.py OUT.jsonl [VARIANT ...]   (default: one_tile loop, as first run;
       the variants: one_tile, loop, one_tile_c_ptr)
"""
import json
import sys

import torch

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.verify import poisoned, poisoned_view

SHAPES = [(256, 14336, 4096), (512, 14336, 4096), (256, 8192, 8192), (256, 2048, 1024)]
kernel = mm._matmul_tma_kernel
configs, prune, heur = list(kernel.configs), kernel.early_config_prune, kernel.fn.values
one_tile_rule = heur["ONE_TILE"]
cfg = [c for c in configs if c.kwargs["SWAP_AB"] and c.kwargs["BLOCK_M"] == 256
       and c.kwargs["BLOCK_N"] == 128 and c.kwargs["BLOCK_K"] == 32 and c.num_stages == 3
       and not c.kwargs.get("FLAT")]
print("configs", cfg, flush=True)
out = open(sys.argv[1], "w")
VARIANTS = ("one_tile", "loop", "one_tile_c_ptr")
chosen = sys.argv[2:] or ["one_tile", "loop"]
assert set(chosen) <= set(VARIANTS), f"variants: {VARIANTS}"


def classify(c, a, b, split, prev):
    k = a.shape[1]
    steps = -(-k // 32)
    share = -(-steps // split) * 32
    parts = [a[:, i:i + share].double() @ b[i:i + share].double() for i in range(0, k, share)]
    ref = sum(parts)
    scale = ref.abs().max().item()
    bad = (c.double() - ref).abs() > 1e-2 * scale
    rec = {"bad": int(bad.sum()), "of": c.numel(),
           "rel": ((c.double() - ref).norm() / ref.norm()).item()}
    if rec["bad"]:
        cb = c.double()[bad]
        for name, p in [(f"part{j}", q) for j, q in enumerate(parts)] + [("prev", prev)]:
            if p is not None:
                rec[name] = int(((cb - p[bad]).abs() < 1e-2 * scale).sum())
        rows, cols = bad.nonzero(as_tuple=True)
        rec["tiles"] = sorted({(int(r) // 256, int(q) // 128) for r, q in zip(rows, cols)})[:12]
        rec["rows_in_tile"] = sorted({int(r) % 256 for r in rows})[:8]
        rec["cols_in_tile"] = sorted({int(q) % 128 for q in cols})[:8]
        rec["nan"] = int(torch.isnan(c).sum())
    return rec, ref


try:
    kernel.configs, kernel.early_config_prune = cfg[:1], None
    for variant in chosen:
        heur["ONE_TILE"] = ((lambda args: not args["PERSISTENT"] and not args["TAIL"]
                             and args["SWAP_AB"]) if variant != "loop"
                            else (lambda args: False))
        for m, n, k in SHAPES:
            for split in (1, 2):
                mm.PLANS.clear()
                prev = None
                for rep in range(3):
                    a = torch.randn(m, k, device="cuda")
                    b = torch.randn(k, n, device="cuda")
                    outside = None
                    if variant == "one_tile_c_ptr":
                        c, outside = poisoned_view(m, n, torch.float32, "cuda")
                    else:
                        c = poisoned(m, n, torch.float32, "cuda")
                    try:
                        matmul(a, b, "grouped", out=c, precision="tf32", tma=True,
                               split_k=split, group=8)
                        torch.cuda.synchronize()
                        rec, prev = classify(c, a, b, split, prev)
                        if outside is not None:     # C_PTR's masks: nothing written past C
                            rec["outside_written"] = int((~torch.isnan(outside)).sum())
                    except Exception as e:          # a tile that does not fit, say
                        rec = {"error": f"{type(e).__name__}: {str(e)[:200]}"}
                    rec.update(variant=variant, m=m, n=n, k=k, split=split, rep=rep)
                    print(json.dumps(rec), flush=True)
                    out.write(json.dumps(rec) + "\n")
                    if "error" in rec:
                        break
finally:
    kernel.configs, kernel.early_config_prune = configs, prune
    heur["ONE_TILE"] = one_tile_rule
