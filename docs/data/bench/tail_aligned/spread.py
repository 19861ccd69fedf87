"""The tail split's fixup spread over the tile's shares: ``fixup.py`` found that the sum
of the partials costs about 8 us of 78 at 1163x4096x4096 on the H100 (``slots`` against
``nosum``), where the share that counts last reads every partial alone. Variants, as
``fixup.py``'s split (whole tiles by one program per SM, then the last partial wave's tiles
in ``SMs // rem`` even K shares):

* ``slots``: the library's ``split_k._tail_sum`` (the last share reads all ``ways`` blocks);
* ``own``: the same, the last share adding the other blocks to its own partial in registers;
* ``spread``: each share stores its partial and counts, **waits until all the tile's shares
  have counted** (a spin on the count: probe only, it assumes the tile's programs are all
  resident at once), then sums chunks of ``CHUNK`` rows, chunk ``j, j + ways, ...``, over the
  tile's blocks and stores them into C by masked pointer stores;
* ``nosum``: partials stored, C never written (a lower bound, unchecked).

bf16, grouped(8), 128x256x64 in 3 stages, 8 warps; checked against float64 into a
NaN-poisoned C, 5 interleaved, rotated replicates (do_bench medians) with cuBLAS and
``matmul``. One JSON line a shape.

    python3 docs/data/bench/tail_aligned/spread.py OUT.jsonl     (on a GPU)
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

FIXUPS = {"slots": 0, "own": 1, "spread": 2, "nosum": 3}


@triton.jit
def _grouped(t, tiles_m, tiles_n):
    per_group = 8 * tiles_n
    first_m = (t // per_group) * 8
    rows = tl.minimum(tiles_m - first_m, 8)
    return first_m + (t % per_group) % rows, (t % per_group) // rows


@triton.jit
def _kernel(a_desc, b_desc, c_desc, c_ptr, ws_ptr, counts_ptr, M, N, K, stride_cm, WHOLE,
            PROGRAMS, WAYS, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
            FIXUP: tl.constexpr, CHUNK: tl.constexpr):
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
        tile0 = (tail * WAYS).to(tl.int64) * (BM * BN)
        tl.store(ws_ptr + pid.to(tl.int64) * (BM * BN) + offs, acc)
        if FIXUP != 3:
            tl.debug_barrier()
            count = counts_ptr + tail
            seen = tl.atomic_add(count, 1, sem="acq_rel", scope="gpu")
            if FIXUP == 2:                               # everyone sums a part
                while seen < WAYS:                       # wait for the tile's other shares
                    seen = tl.atomic_add(count, 0, sem="acquire", scope="gpu")
                rows_c = tl.arange(0, CHUNK)
                cols = tl.arange(0, BN)
                for chunk in range(pid % WAYS, BM // CHUNK, WAYS):
                    part = (chunk * CHUNK + rows_c)[:, None] * BN + cols[None, :]
                    s = tl.zeros((CHUNK, BN), dtype=tl.float32)
                    for j in range(0, WAYS):
                        s += tl.load(ws_ptr + tile0 + j * (BM * BN) + part,
                                     cache_modifier=".cg")
                    rm = pm * BM + chunk * CHUNK + rows_c
                    cn = pn * BN + cols
                    tl.store(c_ptr + rm[:, None].to(tl.int64) * stride_cm + cn[None, :],
                             s.to(c_ptr.dtype.element_ty),
                             mask=(rm[:, None] < M) & (cn[None, :] < N))
                # the second count: the last of the tile's shares to finish zeroes it
                if tl.atomic_add(count, 1, sem="acq_rel", scope="gpu") == 2 * WAYS - 1:
                    tl.atomic_xchg(count, 0)
            elif seen == WAYS - 1:
                if FIXUP == 1:                           # own partial from registers
                    for j in range(0, WAYS):
                        if j != pid % WAYS:
                            acc += tl.load(ws_ptr + tile0 + j * (BM * BN) + offs,
                                           cache_modifier=".cg")
                else:
                    acc = tl.zeros((BM, BN), dtype=tl.float32)
                    for j in range(0, WAYS):
                        acc += tl.load(ws_ptr + tile0 + j * (BM * BN) + offs,
                                       cache_modifier=".cg")
                tl.atomic_xchg(count, 0)
                c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))


def split_plan(tiles: int, sms: int, steps: int) -> tuple:
    """(whole tiles, ways) as ``waves.tail_ways``: ways 1 where none split."""
    full, rem = divmod(tiles, sms)
    if full == 0 or rem == 0 or sms // rem < 2:
        return tiles, 1
    ways = min(sms // rem, steps)
    ways = -(-steps // -(-steps // ways))
    return (tiles - rem, ways) if ways >= 2 else (tiles, 1)


def split_run(a, b, c, fixup: str, sms: int, chunk=8, bm=128, bn=256, bk=64):
    M, K = a.shape
    N = b.shape[1]
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    whole, ways = split_plan(tiles, sms, triton.cdiv(K, bk))
    ws = torch.zeros(sms * bm * bn, device=a.device, dtype=torch.float32)
    counts = torch.zeros(sms, device=a.device, dtype=torch.int32)

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm, bk]), d(b, [bk, bn]), d(c, [bm, bn])]

    def run():
        _kernel[(sms,)](*descs, c, ws, counts, M, N, K, c.stride(0), whole, sms, ways, BM=bm,
                        BN=bn, BK=bk, FIXUP=FIXUPS[fixup], CHUNK=chunk, num_stages=3,
                        num_warps=8)
        return c
    return run, {"tiles": tiles, "whole": whole, "ways": ways}


SHAPES = [(1163, 4096, 4096), (1201, 14336, 4096), (2500, 4096, 8192), (1250, 8192, 8192),
          (700, 8192, 8192), (2200, 4096, 4096)]

if __name__ == "__main__":
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            ref = a.double() @ b.double()
            runs = {"cublas": lambda: torch.matmul(a, b, out=c),
                    "matmul": lambda: matmul(a, b, out=c)}
            plans = {}
            for label, fixup, chunk in (("slots", "slots", 8), ("own", "own", 8),
                                        ("spread/8", "spread", 8),
                                        ("spread/16", "spread", 16),
                                        ("nosum (unchecked)", "nosum", 8)):
                runs[label], plans[label] = split_run(a, b, c, fixup, sms, chunk)
            errors = {}
            for name, fn in runs.items():
                if name.startswith("nosum"):
                    fn()
                    continue
                for turn in range(3):       # again: the counts must be zero after each
                    c.fill_(float("nan"))
                    fn()
                    torch.cuda.synchronize()
                    e = float((c.double() - ref).norm() / ref.norm())
                    errors[name] = max(errors.get(name, 0.0), e) if e == e else e
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
