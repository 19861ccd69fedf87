"""Would fp8 gain from the tail split? ``scaled_matmul`` leaves 6016x768x2432 at 0.67x
``_scaled_mm`` on the H100 (docs/data/bench/heldout_draw/: its 128x128 tiles fill 2.14 waves).
Here, for fp8 e4m3 with per-tensor scales, B K-major, bf16 out, grouped(8), C by TMA:

* ``grid BMxBN``: one program a tile;
* ``tail BMxBN``: one program per SM runs the whole waves, then each of the last partial
  wave's ``rem`` tiles is cut into ``SMs // rem`` even K shares whose fp32 partials the last
  share to count adds in share order (the 16-bit kernel's ``TAIL``, written again here);

beside ``scaled_matmul`` and ``torch._scaled_mm`` (fast accumulation). Checked against
float64 into a NaN-poisoned C (three calls each: the counts must come back to zero), then
5 interleaved, rotated replicates of do_bench medians.

    python3 docs/data/bench/tail_aligned/fp8_tail.py OUT.jsonl     (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.bench import operands
from swizzlekit.lab.harness import interleaved_ms


@triton.jit
def _grouped(t, tiles_m, tiles_n):
    per_group = 8 * tiles_n
    first_m = (t // per_group) * 8
    rows = tl.minimum(tiles_m - first_m, 8)
    return first_m + (t % per_group) % rows, (t % per_group) // rows


@triton.jit
def _acc(a_desc, bt_desc, pm, pn, first, last, BM: tl.constexpr, BN: tl.constexpr,
         BK: tl.constexpr):
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(first, last):
        acc = tl.dot(a_desc.load([pm * BM, k * BK]), bt_desc.load([pn * BN, k * BK]).T, acc)
    return acc


@triton.jit
def _kernel(a_desc, bt_desc, c_desc, sa_ptr, sb_ptr, ws_ptr, counts_ptr, M, N, K, WHOLE,
            PROGRAMS, WAYS, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
            TAIL: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    steps = tl.cdiv(K, BK)
    scale = tl.load(sa_ptr) * tl.load(sb_ptr)
    pid = tl.program_id(0)
    if TAIL:
        for t in range(pid, WHOLE, PROGRAMS):
            pm, pn = _grouped(t, tiles_m, tiles_n)
            acc = _acc(a_desc, bt_desc, pm, pn, 0, steps, BM, BN, BK)
            c_desc.store([pm * BM, pn * BN], (acc * scale).to(c_desc.dtype))
        tail = pid // WAYS
        if (WAYS > 1) & (WHOLE + tail < tiles_m * tiles_n):
            pm, pn = _grouped(WHOLE + tail, tiles_m, tiles_n)
            share = tl.cdiv(steps, WAYS)
            first = (pid % WAYS) * share
            acc = _acc(a_desc, bt_desc, pm, pn, first, tl.minimum(steps, first + share), BM, BN,
                       BK)
            offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
            tl.store(ws_ptr + pid.to(tl.int64) * (BM * BN) + offs, acc)
            tl.debug_barrier()
            if tl.atomic_add(counts_ptr + tail, 1, sem="acq_rel", scope="gpu") == WAYS - 1:
                acc = tl.zeros((BM, BN), dtype=tl.float32)
                for j in range(0, WAYS):
                    acc += tl.load(ws_ptr + (tail * WAYS + j).to(tl.int64) * (BM * BN) + offs,
                                   cache_modifier=".cg")
                tl.atomic_xchg(counts_ptr + tail, 0)
                c_desc.store([pm * BM, pn * BN], (acc * scale).to(c_desc.dtype))
    else:
        pm, pn = _grouped(pid, tiles_m, tiles_n)
        acc = _acc(a_desc, bt_desc, pm, pn, 0, steps, BM, BN, BK)
        c_desc.store([pm * BM, pn * BN], (acc * scale).to(c_desc.dtype))


def split_plan(tiles: int, sms: int, steps: int) -> tuple:
    """(whole tiles, ways), as ``waves.tail_ways``; ways 1 where none split."""
    full, rem = divmod(tiles, sms)
    if full == 0 or rem == 0 or sms // rem < 2:
        return tiles, 1
    ways = min(sms // rem, steps)
    ways = -(-steps // -(-steps // ways))
    return (tiles - rem, ways) if ways >= 2 else (tiles, 1)


def launcher(a, b, c, sa, sb, tail: bool, bm, bn, bk, stages, warps, sms):
    M, K = a.shape
    N = b.shape[1]
    bt = b.T
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    whole, ways = split_plan(tiles, sms, triton.cdiv(K, bk)) if tail else (tiles, 1)
    ws = torch.empty(sms * bm * bn, device=a.device, dtype=torch.float32)
    counts = torch.zeros(sms, device=a.device, dtype=torch.int32)

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm, bk]), d(bt, [bn, bk]), d(c, [bm, bn])]
    grid = (sms,) if tail else (tiles,)

    def run():
        _kernel[grid](*descs, sa, sb, ws, counts, M, N, K, whole, sms, ways, BM=bm, BN=bn,
                      BK=bk, TAIL=tail, num_stages=stages, num_warps=warps)
        return c
    return run, {"tiles": tiles, "whole": whole, "ways": ways}


SHAPES = [(6016, 768, 2432), (1163, 4096, 4096), (1100, 4096, 4096), (2500, 4096, 8192),
          (13312, 8064, 896), (6016, 1536, 4096)]
TILES = {"128x256": (128, 256, 128, 3, 8), "128x128": (128, 128, 128, 4, 8)}

if __name__ == "__main__":
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a, b, dtype, extra, ref = operands(M, N, K, "fp8")
            sa, sb = extra["scale_a"], extra["scale_b"]
            c = torch.empty(M, N, device="cuda", dtype=dtype)
            runs = {"cublas": lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=dtype,
                                                       use_fast_accum=True, out=c),
                    "scaled_matmul": lambda: scaled_matmul(a, b, sa, sb, out=c)}
            plans = {}
            for name, cfg in TILES.items():
                for tail in (False, True):
                    label = f"{'tail' if tail else 'grid'} {name}"
                    runs[label], plans[label] = launcher(a, b, c, sa, sb, tail, *cfg, sms)
            errors = {}
            for name, fn in runs.items():
                worst = 0.0
                try:
                    for _ in range(3):
                        c.fill_(float("nan"))
                        fn()
                        torch.cuda.synchronize()
                        e = float((c.double() - ref).norm() / ref.norm())
                        worst = e if e != e else max(worst, e)
                    errors[name] = worst
                except Exception as e:             # a config that does not fit: its text
                    errors[name] = f"{type(e).__name__}: {str(e)[:160]}"
            bad = {k: e for k, e in errors.items() if not (isinstance(e, float) and e < 2e-2)}
            times = interleaved_ms({k: v for k, v in runs.items() if k not in bad}, 5,
                                   warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            row = {"shape": [M, N, K], "errors": errors, "bad": bad, "ms": ms,
                   "replicates": times, "plans": plans, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + "  | x cublas " + " ".join(f"{k}={ms['cublas'] / v:.3f}" for k, v in
                                               ms.items() if k != "cublas")
                  + f"  {plans}" + (f"  BAD {list(bad)}" if bad else ""), flush=True)
