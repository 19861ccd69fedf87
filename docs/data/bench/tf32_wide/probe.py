"""Probe: TF32 in 128x256 tiles (two warpgroups, as cuBLAS's TF32 kernel), whose fp32 C tile does
not fit in shared memory beside a deep pipeline when TMA stores it (128 KB of staging: 128x256
in 3 stages asks 278 KB). Here C leaves either by TMA (staged), by TMA in two 128x128 halves,
or by plain stores from registers (no staging), so that 4 stages fit.

A (M x K) and B K-major (N x K, ``bt``), fp32, tl.dot in TF32; one program a tile, grouped(8).
Each variant checked against float64 into a NaN-poisoned C, then timed with cuBLAS (TF32
allowed, on ``bt.T``) in 5 interleaved, rotated replicates (do_bench medians, L2 flushed).
One JSON line a shape, with each kernel's shared memory and registers.

    python3 docs/data/bench/tf32_wide/probe.py OUT.jsonl     (on a GPU)
"""
import json
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from swizzlekit.lab.harness import checked_medians


@triton.jit
def _kernel(a_desc, b_desc, c_desc, c_half_desc, c_ptr, M, N, K, BM: tl.constexpr,
            BN: tl.constexpr, BK: tl.constexpr, STORE: tl.constexpr):
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
        b = b_desc.load([n0, k * BK]).T
        acc = tl.dot(a, b, acc, input_precision="tf32")
    if STORE == 0:                                  # TMA, the whole tile staged
        c_desc.store([m0, n0], acc)
    elif STORE == 1:                                # TMA, two halves of BN / 2 columns
        left, right = tl.split(tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1)))
        c_half_desc.store([m0, n0], left)
        c_half_desc.store([m0, n0 + BN // 2], right)
    else:                                           # plain stores from registers
        offs_m = m0 + tl.arange(0, BM)
        offs_n = n0 + tl.arange(0, BN)
        tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
                 mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def tile_run(a, bt, c, bm, bn, bk, stages, warps, store, info):
    M, K = a.shape
    N = bt.shape[0]

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm, bk]), d(bt, [bn, bk]), d(c, [bm, bn]), d(c, [bm, bn // 2])]
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)

    def run(out=c):
        k = _kernel[grid](*descs, c, M, N, K, BM=bm, BN=bn, BK=bk, STORE=store,
                          num_stages=stages, num_warps=warps)
        info.setdefault("shared_bytes", k.metadata.shared)
        info.setdefault("regs_per_thread", k.n_regs)
        info.setdefault("spills", k.n_spills)
        return out
    return run


STORES = {0: "tma", 1: "tma halves", 2: "registers"}
#: (BM, BN, BK, stages, warps, store)
VARIANTS = [(128, 128, 32, 5, 4, 0), (128, 128, 32, 5, 4, 2),
            (128, 256, 32, 3, 8, 1), (128, 256, 32, 3, 8, 2), (128, 256, 32, 4, 8, 2),
            (128, 256, 32, 4, 8, 1), (256, 128, 32, 4, 8, 2), (128, 256, 16, 6, 8, 2)]
SHAPES = [(4096, 4096, 4096), (2048, 4096, 4096), (8192, 8192, 8192), (2048, 14336, 8192),
          (4096, 4096, 11008)]

torch.backends.cuda.matmul.allow_tf32 = True
with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda")
        bt = torch.randn(N, K, device="cuda")
        c = torch.empty(M, N, device="cuda")
        ref = a.double() @ bt.double().T
        runs = {"cublas": lambda out=c: torch.matmul(a, bt.T, out=out)}
        infos = {}
        for bm, bn, bk, st, w, store in VARIANTS:
            label = f"{bm}x{bn}x{bk}/s{st}/w{w} C by {STORES[store]}"
            infos[label] = {}
            runs[label] = tile_run(a, bt, c, bm, bn, bk, st, w, store, infos[label])

        def error(fn):
            c.fill_(float("nan"))
            got = fn()
            return float((got.double() - ref).norm() / ref.norm())
        res = checked_medians(runs, error, 1e-3, 5, warmup_ms=10, rep_ms=40)
        row = {"shape": [M, N, K], **res, "kernels": infos,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        cub = res["ms"].get("cublas")
        flop = 2 * M * N * K
        print(f"{M}x{N}x{K}:", flush=True)
        for k, v in sorted(res["ms"].items(), key=lambda x: x[1]):
            print(f"  {k:40s} {v * 1e3:8.1f} us {flop / v / 1e9:6.0f} TFLOP/s {cub / v:.3f}x"
                  f"  {infos.get(k, '')}", flush=True)
        for k, e in res["bad"].items():
            print(f"  {k:40s} BAD {str(e)[:150]}", flush=True)
