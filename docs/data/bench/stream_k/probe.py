"""Does stream-K close the ragged and last-wave gaps? A stand-alone stream-K GEMM (TMA loads,
bf16, grouped(8) tile order) timed against cuBLAS and ``swizzlekit.kernels.matmul`` at the
ragged-pairs shapes that miss 3%, and their tile-aligned neighbours.

One program per SM slot (``G`` = SMs x CTAs per SM). The first ``SK`` tiles' K steps are
shared out evenly, ``PER = ceil(SK * steps / G)`` a program; each partial tile goes to the
program's slot of an fp32 workspace, the tile's counter counts it, and the program that
counts last sums the slots in program order and stores C. The other tiles run whole, one per
program in turn (data-parallel). ``SK``: ``dp`` none (persistent only), ``sk1`` the tiles
past the last full wave, ``sk2`` those and one wave more, ``all`` every tile; ``grid`` (for
other scripts) launches one program a tile.

Each variant is checked once against float64 (rows sampled) into a NaN-poisoned C, then all
are timed in 5 interleaved, rotated replicates (do_bench medians, L2 flushed). One JSON line a
shape.

    python3 docs/data/bench/stream_k/probe.py OUT.jsonl [N | MxNxK ...]
    (on a GPU; N: the first N shapes of SHAPES; or the shapes named)
"""
import json
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from swizzlekit.cta.triton import grouped as _grouped  # Triton's grouped order
from swizzlekit.kernels import matmul
from swizzlekit.lab.harness import checked_medians

SHAPES = [(317, 4096, 14336), (384, 4096, 14336), (1201, 14336, 4096), (1280, 14336, 4096),
          (4000, 4000, 4000), (4096, 4096, 4032), (3000, 5000, 4000), (3072, 5120, 4032),
          (9000, 7000, 3000), (9088, 7040, 3008), (6000, 7000, 3000), (6016, 7040, 3008)]
#: (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps, CTAs per SM)
CONFIGS = [(128, 128, 64, 4, 8, 1), (128, 256, 64, 3, 8, 1), (64, 128, 64, 3, 4, 2)]
MODES = ("dp", "sk1", "sk2", "all")


@triton.jit
def _acc(a_desc, b_desc, pid_m, pid_n, k0, k1, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
         BLOCK_K: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(k0, k1):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    return acc


@triton.jit
def _stream_k(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, M, N, K, SK, PER,
              GROUP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    G = tl.num_programs(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    steps = tl.cdiv(K, BLOCK_K)
    start = pid * PER
    end = tl.minimum(start + PER, SK * steps)
    offs = tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    # a for loop over this program's tiles, not a while loop over its steps: under a while
    # loop Triton 3.6 ran the K loop at about half speed (h100_d83b38e.jsonl, "all")
    for tile in range(start // steps, tl.cdiv(end, steps)):
        k0 = tl.maximum(start, tile * steps) - tile * steps
        k1 = tl.minimum(end, tile * steps + steps) - tile * steps
        pid_m, pid_n = _grouped(tile, tiles_m, tiles_n, GROUP)
        acc = _acc(a_desc, b_desc, pid_m, pid_n, k0, k1, BLOCK_M, BLOCK_N, BLOCK_K)
        if (k0 == 0) & (k1 == steps):
            c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))
        else:
            slot = 2 * pid + (start < tile * steps).to(tl.int32)
            tl.store(ws_ptr + slot.to(tl.int64) * (BLOCK_M * BLOCK_N) + offs, acc)
            tl.debug_barrier()
            p0 = (tile * steps) // PER
            p1 = ((tile + 1) * steps - 1) // PER
            count = counts_ptr + tile
            if tl.atomic_add(count, 1, sem="acq_rel", scope="gpu") == p1 - p0:
                acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
                for q in range(p0, p1 + 1):
                    s = 2 * q + (q * PER < tile * steps).to(tl.int32)
                    acc += tl.load(ws_ptr + s.to(tl.int64) * (BLOCK_M * BLOCK_N) + offs,
                                   cache_modifier=".cg")
                c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))
                tl.atomic_xchg(count, 0)
    for tile in range(SK + pid, tiles_m * tiles_n, G):
        pid_m, pid_n = _grouped(tile, tiles_m, tiles_n, GROUP)
        acc = _acc(a_desc, b_desc, pid_m, pid_n, 0, steps, BLOCK_M, BLOCK_N, BLOCK_K)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


SMS = torch.cuda.get_device_properties(0).multi_processor_count
COUNTS = torch.zeros(1 << 16, device="cuda", dtype=torch.int32)


def plan(M, N, K, cfg, mode):
    bm, bn, bk, _, _, per_sm = cfg
    tiles = -(-M // bm) * -(-N // bn)
    if mode == "grid":                  # one program a tile, none persistent
        return tiles, 0, 1
    G = SMS * per_sm
    rem = tiles % G
    sk = {"dp": 0, "sk1": rem, "sk2": rem + G if tiles >= 2 * G and rem else rem,
          "all": tiles}[mode]
    steps = -(-K // bk)
    per = max(1, -(-sk * steps // G))
    return G, sk, per


def stream_k(a, b, c, cfg, mode):
    bm, bn, bk, stages, warps, per_sm = cfg
    M, K = a.shape
    N = b.shape[1]
    G, sk, per = plan(M, N, K, cfg, mode)
    ws = WS.get((G, bm, bn))
    if ws is None:
        ws = WS[G, bm, bn] = torch.empty(2 * G * bm * bn, device="cuda", dtype=torch.float32)
    ad = TensorDescriptor(a, list(a.shape), list(a.stride()), [bm, bk])
    bd = TensorDescriptor(b, list(b.shape), list(b.stride()), [bk, bn])
    cd = TensorDescriptor(c, list(c.shape), list(c.stride()), [bm, bn])
    _stream_k[(G,)](ad, bd, cd, ws, COUNTS, M, N, K, sk, per, GROUP=8, BLOCK_M=bm, BLOCK_N=bn,
                    BLOCK_K=bk, num_stages=stages, num_warps=warps)
    return c


WS: dict = {}


def error(fn, a, b, M, N):
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
    fn(c)
    rows = torch.randperm(M, device="cuda")[:64]
    ref = a[rows].double() @ b.double()
    got = c[rows].double()
    return float((got - ref).norm() / ref.norm()) if torch.isfinite(c).all() else float("nan")


if __name__ == "__main__":
    with open(sys.argv[1], "a") as f:
        named = [tuple(int(v) for v in s.split("x")) for s in sys.argv[2:] if "x" in s]
        first = int(sys.argv[2]) if len(sys.argv) == 3 and "x" not in sys.argv[2] else None
        for M, N, K in named or SHAPES[:first]:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                    "default": lambda out=c: matmul(a, b, out=out)}
            plans = {}
            for cfg in CONFIGS:
                seen = set()
                for mode in MODES:
                    p = plan(M, N, K, cfg, mode)
                    if p in seen:
                        continue
                    seen.add(p)
                    name = f"{cfg[0]}x{cfg[1]}x{cfg[2]}/s{cfg[3]}/w{cfg[4]} {mode}"
                    plans[name] = {"G": p[0], "sk_tiles": p[1], "per": p[2]}
                    runs[name] = lambda out=c, cfg=cfg, mode=mode: stream_k(a, b, out, cfg, mode)
            got = checked_medians(runs, lambda fn: error(fn, a, b, M, N), warmup_ms=10,
                                  rep_ms=40)
            errs, bad, ms, times = (got[k] for k in ("errors", "bad", "ms", "replicates"))
            row = {"shape": [M, N, K], "plans": plans, "errors": errs, "bad": bad, "ms": ms,
                   "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            best = sorted(ms.items(), key=lambda kv: kv[1])
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in best[:6])
                  + f"  | cublas {ms.get('cublas', 0) * 1e3:.1f} default {ms.get('default', 0) * 1e3:.1f}"
                  + (f"  BAD {list(bad)}" if bad else ""), flush=True)
