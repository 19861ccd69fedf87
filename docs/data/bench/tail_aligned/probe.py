"""Probe: stream-K for 16-bit GEMMs whose tiles leave the last wave part empty (mid-M shapes
such as 1163x4096x4096 ran 0.63x cuBLAS, 640x4096x14336 0.71x; docs/benchmarks.md).

One persistent program per SM. ``dp``: one program a tile, no split (the baseline). ``sk``:
the tiles of the last partial wave and of one full wave before it (all tiles where there is
less than one wave) are cut into K-step ranges of equal length, one range a program, after
each program's whole tiles; ``tail``: the last partial wave's tiles only. A program whose
range covers part of a tile stores its fp32 partial into the tile's slot for it and counts
itself in the tile's counter; the one that counts last adds the tile's slots in slot order
(the same bits whoever comes last) and writes C. No program waits on another::

    K steps of the SK tiles, one after another:  |--- tile 0 ---|--- tile 1 ---|-- ...
    programs, PER steps each:                    |  p0   |  p1   |  p2   |  p3 ...

A (M x K) and B row-major (K x N), bf16, fp32 accumulation, grouped(8) tile order, C by TMA.
Every variant checked against float64 into a NaN-poisoned C, then timed beside cuBLAS and
the library's ``matmul`` in 5 interleaved, rotated replicates (do_bench medians, L2
flushed). One JSON line a shape.

    python3 docs/data/bench/tail_aligned/probe.py OUT.jsonl [split]     (on a GPU)

``split``: the last partial wave's tiles only, each split ``SMs // tiles`` ways in even
shares of its K steps (where that is 2 or more), so that programs on one K share run in step.
"""
import json
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from swizzlekit.kernels import matmul
from swizzlekit.lab.harness import checked_medians


@triton.jit
def _grouped(t, tiles_m, tiles_n):
    per_group = 8 * tiles_n
    first_m = (t // per_group) * 8
    rows = tl.minimum(tiles_m - first_m, 8)
    return first_m + (t % per_group) % rows, (t % per_group) // rows


@triton.jit
def _kernel(a_desc, b_desc, c_desc, ws_ptr, counts_ptr, M, N, K, DP_TILES, NUM_PROG, TOTAL,
            PER, MAXC, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
            ALIGNED: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    ipt = tl.cdiv(K, BK)
    pid = tl.program_id(0)
    for t in range(pid, DP_TILES, NUM_PROG):            # whole tiles
        pm, pn = _grouped(t, tiles_m, tiles_n)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, ipt):
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([k * BK, pn * BN]), acc)
        c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))
    if ALIGNED:     # split: PER programs a tile, each an even share of its K steps (MAXC)
        share = tl.cdiv(ipt, PER)
        start = (pid // PER) * ipt + (pid % PER) * share
        end = tl.minimum(start + share, (pid // PER + 1) * ipt)
        end = tl.where(pid < TOTAL, end, start)
    else:
        start = pid * PER                               # this program's K-step range
        end = tl.minimum(start + PER, TOTAL)
    t_end = tl.where(start < end, tl.cdiv(end, ipt), start // ipt)
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    for tile in range(start // ipt, t_end):             # the SK tiles it touches
        kb = tl.maximum(start - tile * ipt, 0)
        ke = tl.minimum(end - tile * ipt, ipt)
        pm, pn = _grouped(DP_TILES + tile, tiles_m, tiles_n)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(kb, ke):
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([k * BK, pn * BN]), acc)
        if (kb == 0) & (ke == ipt):
            c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))
        else:
            if ALIGNED:
                p_first = tile * PER
                n = PER
            else:
                p_first = (tile * ipt) // PER
                n = ((tile + 1) * ipt - 1) // PER - p_first + 1
            base = ws_ptr + (tile * MAXC).to(tl.int64) * (BM * BN)
            tl.store(base + (pid - p_first) * (BM * BN) + offs, acc)
            tl.debug_barrier()
            last = tl.atomic_add(counts_ptr + tile, 1, sem="acq_rel", scope="gpu") == n - 1
            if last:
                acc = tl.zeros((BM, BN), dtype=tl.float32)
                for s in range(0, n):
                    acc += tl.load(base + s * (BM * BN) + offs, cache_modifier=".cg")
                tl.atomic_xchg(counts_ptr + tile, 0)
                c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))


def plan(T: int, ipt: int, sms: int, mode: str) -> tuple:
    """(whole tiles, programs, SK steps or split programs, steps a program or programs a
    tile, slots a tile) of ``mode``. ``split``: the last partial wave's tiles split
    ``sms // rem`` ways in even shares, where that is 2 or more."""
    full, rem = divmod(T, sms)
    if mode == "dp" or rem == 0 or (mode == "split" and sms // rem < 2):
        return T, T, 0, 1, 1
    if mode == "split":
        share = -(-ipt // min(sms // rem, ipt))
        ways = -(-ipt // share)                     # no share empty
        return T - rem, sms, rem * ways, ways, ways
    sk_tiles = rem if mode == "tail" or full == 0 else rem + sms
    total = sk_tiles * ipt
    per = -(-total // sms)
    return T - sk_tiles, sms, total, per, -(-ipt // per) + 1


def tile_run(a, b, c, bm, bn, bk, stages, warps, mode, info):
    M, K = a.shape
    N = b.shape[1]
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    T = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    ipt = triton.cdiv(K, bk)
    dp, progs, total, per, maxc = plan(T, ipt, sms, mode)
    sk_tiles = T - dp
    ws = torch.empty(max(sk_tiles * maxc * bm * bn, 1), device=a.device, dtype=torch.float32)
    counts = torch.zeros(max(sk_tiles, 1), device=a.device, dtype=torch.int32)
    info.update(tiles=T, whole=dp, programs=progs, sk_steps=total, per=per, slots=maxc)

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm, bk]), d(b, [bk, bn]), d(c, [bm, bn])]

    def run(out=c):
        k = _kernel[(progs,)](*descs, ws, counts, M, N, K, dp, progs, total, per, maxc,
                              BM=bm, BN=bn, BK=bk, ALIGNED=mode == "split",
                              num_stages=stages, num_warps=warps)
        info.setdefault("shared_bytes", k.metadata.shared)
        info.setdefault("spills", k.n_spills)
        return out
    return run


#: (BM, BN, BK, stages, warps)
TILES = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 8)]
MODES = ("dp", "sk", "tail")
SHAPES = [(1163, 4096, 4096), (640, 4096, 14336), (317, 4096, 14336), (1201, 14336, 4096),
          (256, 14336, 4096), (3000, 5000, 4000), (4096, 4096, 4096), (2000, 8192, 8192)]
#: ``split`` (second argument): the aligned tail split, at shapes whose last wave of
#: 128x256 tiles is at most half full on 132 SMs
SPLIT_SET = ([(128, 256, 64, 3, 8)], ("dp", "split", "tail"),
             [(1163, 4096, 4096), (1201, 14336, 4096), (1100, 4096, 4096), (2200, 4096, 4096),
              (700, 8192, 8192), (1250, 8192, 8192), (2500, 4096, 8192), (1800, 14336, 4096)])


def pitched(b):
    """B in a buffer whose rows are 128-byte multiples apart (a view of its first N columns)."""
    K, N = b.shape
    if (N * 2) % 128 == 0:
        return b
    wide = torch.empty(K, -(-N // 64) * 64, dtype=b.dtype, device=b.device)
    wide[:, :N] = b
    return wide[:, :N]


if __name__ == "__main__":
    if sys.argv[2:] == ["split"]:
        TILES, MODES, SHAPES = SPLIT_SET
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            ref = a.double() @ b.double()
            bp = pitched(b)
            runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                    "swizzlekit matmul": lambda out=c: matmul(a, b, out=out)}
            infos = {}
            for bm, bn, bk, st, w in TILES:
                for mode in MODES:
                    label = f"{bm}x{bn}x{bk}/s{st}/w{w} {mode}"
                    infos[label] = {}
                    runs[label] = tile_run(a, bp, c, bm, bn, bk, st, w, mode, infos[label])

            def error(fn):
                c.fill_(float("nan"))
                got = fn()
                return float((got.double() - ref).norm() / ref.norm())
            res = checked_medians(runs, error, 1e-2, 5, warmup_ms=10, rep_ms=40)
            # a second check after timing: the counters were left zero by every launch
            again = {k: error(runs[k]) for k in infos if k not in res["bad"]}
            row = {"shape": [M, N, K], **res, "errors_after": again, "kernels": infos,
                   "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            cub = res["ms"].get("cublas")
            flop = 2 * M * N * K
            print(f"{M}x{N}x{K}:", flush=True)
            for k, v in sorted(res["ms"].items(), key=lambda x: x[1]):
                print(f"  {k:30s} {v * 1e3:8.1f} us {flop / v / 1e9:6.0f} TFLOP/s {cub / v:.3f}x"
                      f"  err {again.get(k, res['errors'][k]):.1e} {infos.get(k, '')}",
                      flush=True)
            for k, e in res["bad"].items():
                print(f"  {k:30s} BAD {str(e)[:150]}", flush=True)
