"""The 16-bit clustered route held out: bf16 shapes drawn by `draw.py`'s rule (M 1024-8192,
N a multiple of 8 but not of 32 from 1000 to 12000, K a multiple of 8 from 1000 to 8192)
from a fixed seed.

    python3 route16.py OUT.jsonl [N_SHAPES [SEED]]   (SEED 20261134: the set drawn after
                                                      the 256x128 tiles joined the route)

Per shape, in one process: ``matmul``'s first call (which times CUTLASS's GEMM in each of
its tiles, ``clustered.CUTLASS_CANDIDATES``, against its Triton plan and keeps the fastest:
``kept`` 0 for the Triton plan, else the tiles), each output checked against float64 on
fresh random operands, poisoned with NaN first; then 5 interleaved, rotated replicates of
do_bench means (L2 flushed) of cuBLAS (``torch.matmul``), the call as kept, its Triton
plan alone and CUTLASS's GEMM alone in each tiles; µs.
"""
import json
import random
import sys

import torch
import triton

from swizzlekit.kernels.cuda.cutlass import TILES16, cutlass_matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.verify import poisoned, random_operands, relative_error


def draw(count: int, seed: int) -> list[tuple[int, int, int]]:
    r = random.Random(seed)
    out = []
    while len(out) < count:
        M = r.randrange(1024, 8193)
        N = r.randrange(1000, 12001) // 8 * 8
        K = r.randrange(1000, 8193) // 8 * 8
        if N % 32:
            out.append((M, N, K))
    return out


def main():
    path, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20261134
    options = mm._options("auto", "tf32", False, None, None, {})
    with open(path, "w") as log:
        for M, N, K in draw(count, seed):
            a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
            c = poisoned(M, N, torch.bfloat16, "cuda")
            mm.matmul(a, b, out=c)                              # the first call: the pick
            print_ = mm.fingerprint((a, b, c), options)
            kept = mm.CLUSTERED.get(print_)
            route = mm.ROUTES.follow(print_, mm.PLANS)
            runs = {"cublas": lambda: torch.matmul(a, b, out=c),
                    "matmul": lambda: mm.matmul(a, b, out=c)}
            if route is not None:
                runs["triton"] = lambda: mm._repeat(route, a, b, c, print_, "tf32")
            for tiles in TILES16:
                runs[tiles] = lambda tiles=tiles: cutlass_matmul(a, b, out=c, tiles=tiles)
            err = {}
            for name, run in runs.items():
                c.fill_(float("nan"))
                run()
                torch.cuda.synchronize()
                err[name] = relative_error(c, a, b)
            names = list(runs)
            reps = {n: [] for n in names}
            for r in range(5):
                for n in names[r % len(names):] + names[:r % len(names)]:
                    reps[n].append(triton.testing.do_bench(runs[n], warmup=25, rep=100) * 1e3)
            us = {n: sorted(v)[2] for n, v in reps.items()}
            rec = {"shape": f"{M}x{N}x{K}", "kept": kept, "err": err, "us": us,
                   "replicates": reps}
            log.write(json.dumps(rec) + "\n")
            log.flush()
            print(rec["shape"], "kept", kept or "triton",
                  " ".join(f"{n} {u:.1f} ({us['cublas'] / u:.3f})" for n, u in us.items()),
                  "| max err %.2e" % max(err.values()), flush=True)


if __name__ == "__main__":
    main()
