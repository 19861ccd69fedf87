"""Where the tail split's last wave goes: the split of ``probe.py split`` (whole tiles, one
program per SM, then the last partial wave's tiles in ``SMs // rem`` even K shares) with
three fixups, and with fewer shares:

* ``slots``: each share stores its fp32 partial into its own block; the last to count adds
  the tile's blocks in share order (the library's ``split_k._tail_sum``);
* ``atomic``: each share adds its partial into the tile's one block by fp32 atomics; the last
  to count reads that block, writes C and zeroes it (the sum's order, and so its last bits,
  vary from run to run);
* ``nosum``: each share stores its partial and the tile's C is never written: a lower bound
  of the last wave with no fixup, **not checked** (its C stays NaN; timed only);
* ``slots/2``: ``slots`` with at most 2 shares a tile.

bf16, grouped(8), C by TMA, 128x256x64 in 3 stages, 8 warps. Checked variants against
float64 into a NaN-poisoned C, then all timed with cuBLAS and ``matmul`` in 5 interleaved,
rotated replicates (do_bench medians, L2 flushed). One JSON line a shape.

    python3 docs/data/bench/tail_aligned/fixup.py OUT.jsonl     (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from swizzlekit.kernels import matmul
from swizzlekit.lab.harness import interleaved_ms

FIXUPS = {"slots": 0, "atomic": 1, "nosum": 2}


@triton.jit
def _grouped(t, tiles_m, tiles_n):
    per_group = 8 * tiles_n
    first_m = (t // per_group) * 8
    rows = tl.minimum(tiles_m - first_m, 8)
    return first_m + (t % per_group) % rows, (t % per_group) // rows


@triton.jit
def _kernel(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, M, N, K, WHOLE, PROGRAMS, WAYS,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, FIXUP: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    steps = tl.cdiv(K, BK)
    pid = tl.program_id(0)
    for t in range(pid, WHOLE, PROGRAMS):                # whole tiles
        pm, pn = _grouped(t, tiles_m, tiles_n)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, steps):
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([k * BK, pn * BN]), acc)
        c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))
    tail = pid // WAYS
    if (WAYS > 1) & (WHOLE + tail < tiles_m * tiles_n):
        pm, pn = _grouped(WHOLE + tail, tiles_m, tiles_n)
        share = tl.cdiv(steps, WAYS)
        first = (pid % WAYS) * share
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(first, tl.minimum(steps, first + share)):
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([k * BK, pn * BN]), acc)
        offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
        if FIXUP == 1:                                   # one block a tile, fp32 atomics
            block = ws_ptr + tail.to(tl.int64) * (BM * BN) + offs
            tl.atomic_add(block, acc, sem="relaxed")
        else:                                            # one block a share
            tl.store(ws_ptr + pid.to(tl.int64) * (BM * BN) + offs, acc)
        if FIXUP != 2:
            tl.debug_barrier()
            last = tl.atomic_add(counts_ptr + tail, 1, sem="acq_rel", scope="gpu") == WAYS - 1
            if last:
                if FIXUP == 1:
                    acc = tl.load(block, cache_modifier=".cg")
                    tl.store(block, tl.zeros((BM, BN), dtype=tl.float32))
                else:
                    acc = tl.zeros((BM, BN), dtype=tl.float32)
                    for j in range(0, WAYS):
                        acc += tl.load(ws_ptr + (tail * WAYS + j).to(tl.int64) * (BM * BN)
                                       + offs, cache_modifier=".cg")
                tl.atomic_xchg(counts_ptr + tail, 0)
                c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))


def split_plan(tiles: int, sms: int, steps: int, cap: int = 0) -> tuple:
    """(whole tiles, ways): the last partial wave's tiles split ``sms // rem`` ways (at most
    ``cap`` where given), no share empty; ways 1 where none split."""
    full, rem = divmod(tiles, sms)
    if full == 0 or rem == 0 or sms // rem < 2:
        return tiles, 1
    ways = min(sms // rem, steps, cap or steps)
    ways = -(-steps // -(-steps // ways))
    return (tiles - rem, ways) if ways >= 2 else (tiles, 1)


def split_run(a, b, c, fixup: str, sms: int, cap: int = 0, bm=128, bn=256, bk=64):
    M, K = a.shape
    N = b.shape[1]
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    whole, ways = split_plan(tiles, sms, triton.cdiv(K, bk), cap)
    ws = torch.zeros(sms * bm * bn, device=a.device, dtype=torch.float32)
    counts = torch.zeros(sms, device=a.device, dtype=torch.int32)

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm, bk]), d(b, [bk, bn]), d(c, [bm, bn])]

    def run(out=c):
        _kernel[(sms,)](*descs, ws, counts, M, N, K, whole, sms, ways, BM=bm, BN=bn, BK=bk,
                        FIXUP=FIXUPS[fixup], num_stages=3, num_warps=8)
        return out
    return run, {"tiles": tiles, "whole": whole, "ways": ways}


SHAPES = [(1163, 4096, 4096), (1201, 14336, 4096), (2500, 4096, 8192), (1250, 8192, 8192),
          (1100, 4096, 4096)]

if __name__ == "__main__":
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            ref = a.double() @ b.double()
            runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                    "swizzlekit matmul": lambda out=c: matmul(a, b, out=out)}
            plans = {}
            for label, fixup, cap in (("slots", "slots", 0), ("atomic", "atomic", 0),
                                      ("nosum (unchecked)", "nosum", 0),
                                      ("slots/2", "slots", 2)):
                runs[label], plans[label] = split_run(a, b, c, fixup, sms, cap)
            errors = {}
            for name, fn in runs.items():
                if name.startswith("nosum"):
                    fn()
                    continue
                c.fill_(float("nan"))
                fn()
                errors[name] = float((c.double() - ref).norm() / ref.norm())
            bad = {k: e for k, e in errors.items() if not e < 1e-2}
            times = interleaved_ms({k: v for k, v in runs.items() if k not in bad}, 5,
                                   warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            row = {"shape": [M, N, K], "errors": errors, "bad": bad, "ms": ms,
                   "replicates": times, "plans": plans, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + f"  {plans['slots']}" + (f"  BAD {bad}" if bad else ""), flush=True)
