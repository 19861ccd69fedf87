"""The fp8 clustered route held out: shapes drawn after its rule (clustered.FP8_CLUSTER_M,
FP8_CLUSTER_MIN_MNK) was written, from a fixed seed: M from 256 to 1024, N a multiple of 16
from 2048 to 32768, K a multiple of 16 from 2048 to 16384, M*N*K above 2**33.

    python3 route.py OUT.jsonl [N_SHAPES [SEED [swap]]]   (SEED 20261128: the first set)

``swap``: M drawn only from the rows whose first call times a swapped build
(:func:`swizzlekit.kernels.triton.clustered.fp8_tiles`: 257-384 and 513-576).

Per shape, in one process: ``scaled_matmul``'s first call (which times CUTLASS's fp8 GEMM
in whole tiles and in stream-K against its Triton plan and keeps the fastest: ``kept`` 0
for the Triton plan, else the ``(tiles, stream_k)`` kept; sets run before 7a9b555 kept 0, 1
or 2), each output checked against float64 on fresh scaled e4m3 operands, poisoned with NaN
first; then 5 interleaved, rotated replicates of do_bench means (L2 flushed) of
``torch._scaled_mm`` (fast accumulation), the call as kept (``scaled_matmul``), its Triton
plan alone and CUTLASS's GEMM alone in each schedule, in its own tiles and (``swapped``)
in ``fp8_tiles(M)`` where those differ; µs.
"""
import json
import random
import sys

import torch
import triton

from swizzlekit.kernels.cuda.cutlass_fp8 import TILES, config, cutlass_scaled_matmul
from swizzlekit.kernels.triton.clustered import fp8_tiles
from swizzlekit.kernels.triton import scaled as sc
from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands


def draw(count: int, seed: int, swap: bool = False) -> list[tuple[int, int, int]]:
    r = random.Random(seed)
    out = []
    while len(out) < count:
        M = r.randrange(256, 1025)
        if swap and fp8_tiles(M) == TILES:
            continue
        N = r.randrange(2048, 32769) // 16 * 16
        K = r.randrange(2048, 16385) // 16 * 16
        if M * N * K > 2**33:
            out.append((M, N, K))
    return out


def main():
    path, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20261128
    with open(path, "w") as log:
        swap = sys.argv[4:5] == ["swap"]
        for M, N, K in draw(count, seed, swap):
            a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
            c = poisoned(M, N, torch.bfloat16, "cuda")
            sc.scaled_matmul(a, b, sa, sb, out=c)               # the first call: the pick
            print_ = sc.fingerprint((a, b, sa, sb, c), (None, "auto", False, None, None))
            kept = sc.CLUSTERED.get(print_)
            triton_route = sc.ROUTES.follow(print_, sc.PLANS)
            runs = {
                "cublas": lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16,
                                                   use_fast_accum=True, out=c),
                "scaled_matmul": lambda: sc.scaled_matmul(a, b, sa, sb, out=c),
                "triton": lambda: sc._repeat(triton_route, a, b, sa, sb, c, None),
                "cutlass": lambda: cutlass_scaled_matmul(a, b, sa, sb, out=c),
                "cutlass_stream_k": lambda: cutlass_scaled_matmul(a, b, sa, sb, out=c,
                                                                  stream_k=True)}
            tiles = fp8_tiles(M)
            if tiles != TILES:
                runs["swapped"] = lambda: cutlass_scaled_matmul(a, b, sa, sb, out=c,
                                                                tiles=tiles)
                runs["swapped_stream_k"] = lambda: cutlass_scaled_matmul(
                    a, b, sa, sb, out=c, stream_k=True, tiles=tiles)
            err = {}
            for name, run in runs.items():
                c.fill_(float("nan"))
                run()
                torch.cuda.synchronize()
                err[name] = relative_error(c, ref=ref)
            names = list(runs)
            reps = {n: [] for n in names}
            for r in range(5):
                for n in names[r % len(names):] + names[:r % len(names)]:
                    reps[n].append(triton.testing.do_bench(runs[n], warmup=25, rep=100) * 1e3)
            us = {n: sorted(v)[2] for n, v in reps.items()}
            rec = {"shape": f"{M}x{N}x{K}", "kept": kept, "tiles": tiles, "err": err, "us": us,
                   "replicates": reps}
            log.write(json.dumps(rec) + "\n")
            log.flush()
            print(rec["shape"], "kept", config(*kept) if kept else "triton",
                  " ".join(f"{n} {u:.1f} ({us['cublas'] / u:.3f})" for n, u in us.items()),
                  "| max err %.2e" % max(err.values()), flush=True)


if __name__ == "__main__":
    main()
