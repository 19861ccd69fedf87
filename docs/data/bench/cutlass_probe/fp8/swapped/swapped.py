"""Time swapped builds of the library's cutlass_fp8.cu (build.sh: CUTLASS on D^T = Bt A^T,
tiles of TILE_M rows of A) against ``torch._scaled_mm`` (fast accumulation), ``scaled_matmul``
and the library's own CUTLASS GEMM (128x256 tiles in clusters of two along M), both schedules
each.

    python3 swapped.py SO_DIR OUT.jsonl MxNxK [MxNxK ...]

SO_DIR holds builds named m<TILE_M>_c<CLUSTER_N>x<CLUSTER_M>.so (build.sh). For each shape
only the FITS builds that waste the fewest rows of A are timed (:func:`padded`: M rounded up
to whole tiles, and to whole clusters along M), whole tiles and stream-K each. Outputs checked
against float64 first (NaN first), then 5 interleaved, rotated replicates of do_bench
medians (L2 flushed); us.
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from variants import load  # noqa: E402

from swizzlekit.kernels.cuda.cutlass_fp8 import cutlass_scaled_matmul  # noqa: E402
from swizzlekit.kernels.triton.scaled import scaled_matmul  # noqa: E402
from swizzlekit.lab.harness import checked_medians  # noqa: E402
from swizzlekit.lab.verify import relative_error, scaled_operands  # noqa: E402

FITS = 4


def shape_of(name: str) -> tuple[int, int, int]:
    """(TILE_M, CLUSTER_N, CLUSTER_M) of a build's name, m160_c1x2 -> (160, 1, 2)."""
    m, c = name.split("_")[:2]
    cn, cm = c[1:].split("x")
    return int(m[1:]), int(cn), int(cm)


def padded(M: int, tile_m: int, cluster_m: int) -> int:
    """Rows of A the grid covers: M in whole tiles, the tiles in whole clusters along M."""
    return math.ceil(math.ceil(M / tile_m) / cluster_m) * cluster_m * tile_m


def fits(M: int, names: list[str], count: int = FITS) -> list[str]:
    """The ``count`` builds that pad M least (ties: the wider tile)."""
    def key(n):
        t, _, cm = shape_of(n)
        return (padded(M, t, cm), -t)
    return sorted(names, key=key)[:count]


def main():
    so_dir, out_path, shapes = sys.argv[1], sys.argv[2], sys.argv[3:]
    builds = load(so_dir, two_schedules=True)
    names = sorted({n.removesuffix("_sk") for n in builds})
    with open(out_path, "w") as log:
        for s in shapes:
            M, N, K = map(int, s.split("x"))
            a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            kernels = {
                "cublas": lambda o: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16,
                                                     use_fast_accum=True, out=o),
                "scaled_matmul": lambda o: scaled_matmul(a, b, sa, sb, out=o),
                "lib": lambda o: cutlass_scaled_matmul(a, b, sa, sb, out=o),
                "lib_sk": lambda o: cutlass_scaled_matmul(a, b, sa, sb, out=o, stream_k=True)}
            for n in fits(M, names):
                for k in (n, n + "_sk"):
                    kernels[k] = (lambda f: lambda o: f(a, b, sa, sb, o))(builds[k])

            def error(fn):                      # the output poisoned with NaN first
                c.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                return relative_error(c, ref=ref)
            res = checked_medians({n: (lambda f: lambda: f(c))(f) for n, f in kernels.items()},
                                  error)
            us = {n: m * 1e3 for n, m in res["ms"].items()}
            rec = {"shape": s, "errors": res["errors"], "us": us,
                   "replicates": {n: [t * 1e3 for t in v] for n, v in res["replicates"].items()}}
            log.write(json.dumps(rec) + "\n")
            log.flush()
            cub = us.get("cublas")
            print(s, " ".join(f"{n} {u:.1f} ({cub / u:.3f})" for n, u in us.items()),
                  "| bad:", res["bad"], flush=True)


if __name__ == "__main__":
    main()
