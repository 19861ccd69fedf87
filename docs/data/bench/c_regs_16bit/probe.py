"""Probe: 16-bit tiles with C stored from registers, so that no C tile is staged in shared
memory and a deeper pipeline fits. 128x256x64 in 4 stages takes 192 KB of operands; staged
for a TMA store its bf16 C tile adds 64 KB, past the 227 KB a CTA may have, so today's prune
drops it and 3 stages run instead.

A (M x K) and B row-major (K x N), bf16, fp32 accumulation; one program a tile, grouped(8).
B is read as given or from a copy whose rows are 128-byte multiples apart (as the library's
pitch copy; the copy not timed here). Each variant checked against float64 into a
NaN-poisoned C, then timed beside cuBLAS and the library's own call (``matmul``, its
copies and plan included) in 5 interleaved, rotated replicates (do_bench medians, L2
flushed). One JSON line a shape, with each kernel's shared memory and registers.

    python3 docs/data/bench/c_regs_16bit/probe.py OUT.jsonl     (on a GPU)
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
def _kernel(a_desc, b_desc, c_desc, c_ptr, M, N, K, stride_cm, BM: tl.constexpr,
            BN: tl.constexpr, BK: tl.constexpr, REGS: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    pid = tl.program_id(0)
    per_group = 8 * tiles_n
    first_m = (pid // per_group) * 8
    rows = tl.minimum(tiles_m - first_m, 8)
    pid_m = first_m + (pid % per_group) % rows
    pid_n = (pid % per_group) // rows
    m0 = pid_m * BM
    n0 = pid_n * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([m0, k * BK])
        b = b_desc.load([k * BK, n0])
        acc = tl.dot(a, b, acc)
    out = acc.to(tl.bfloat16)
    if REGS:                                        # plain stores from registers
        offs_m = m0 + tl.arange(0, BM)
        offs_n = n0 + tl.arange(0, BN)
        tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], out,
                 mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
    else:                                           # TMA, the tile staged
        c_desc.store([m0, n0], out)


def tile_run(a, b, c, bm, bn, bk, stages, warps, regs, info):
    M, K = a.shape
    N = b.shape[1]

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm, bk]), d(b, [bk, bn]), d(c, [bm, bn])]
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)

    def run(out=c):
        k = _kernel[grid](*descs, c, M, N, K, c.stride(0), BM=bm, BN=bn, BK=bk, REGS=regs,
                          num_stages=stages, num_warps=warps)
        info.setdefault("shared_bytes", k.metadata.shared)
        info.setdefault("regs_per_thread", k.n_regs)
        info.setdefault("spills", k.n_spills)
        return out
    return run


#: (BM, BN, BK, stages, warps, C from registers)
VARIANTS = [(128, 256, 64, 3, 8, False), (128, 256, 64, 3, 8, True),
            (128, 256, 64, 4, 8, True), (256, 128, 64, 4, 8, True),
            (128, 256, 32, 6, 8, True), (128, 128, 64, 4, 4, False)]
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (3000, 5000, 4000), (6000, 7000, 3000),
          (2048, 14336, 8192), (9216, 7168, 3072)]


def pitched(b):
    """B in a buffer whose rows are 128-byte multiples apart (a view of its first N columns)."""
    K, N = b.shape
    wide = torch.empty(K, -(-N // 64) * 64, dtype=b.dtype, device=b.device)
    wide[:, :N] = b
    return wide[:, :N]


with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        ref = a.double() @ b.double()
        forms = {"": b} if (N * 2) % 128 == 0 else {" as given": b, " on the copy": pitched(b)}
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "swizzlekit matmul": lambda out=c: matmul(a, b, out=out)}
        infos = {}
        for bm, bn, bk, st, w, regs in VARIANTS:
            for form, bb in forms.items():
                label = f"{bm}x{bn}x{bk}/s{st}/w{w} C by {'registers' if regs else 'tma'}{form}"
                infos[label] = {}
                runs[label] = tile_run(a, bb, c, bm, bn, bk, st, w, regs, infos[label])

        def error(fn):
            c.fill_(float("nan"))
            got = fn()
            return float((got.double() - ref).norm() / ref.norm())
        res = checked_medians(runs, error, 1e-2, 5, warmup_ms=10, rep_ms=40)
        row = {"shape": [M, N, K], **res, "kernels": infos,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        cub = res["ms"].get("cublas")
        flop = 2 * M * N * K
        print(f"{M}x{N}x{K}:", flush=True)
        for k, v in sorted(res["ms"].items(), key=lambda x: x[1]):
            print(f"  {k:52s} {v * 1e3:8.1f} us {flop / v / 1e9:6.0f} TFLOP/s {cub / v:.3f}x"
                  f"  {infos.get(k, '')}", flush=True)
        for k, e in res["bad"].items():
            print(f"  {k:52s} BAD {str(e)[:150]}", flush=True)
