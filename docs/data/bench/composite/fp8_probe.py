"""Probe: fp8 (e4m3, per-tensor scales, bf16 out) in composite tiles of up to three parts in N,
``(BM1 + BM2) x (BN1 + BN2 + BN3)``, where the plain tiles fill their last wave poorly
(256x14336x4096: 224 tiles of 128x128 on 132 SMs, 1.7 waves; 128 tiles of 128x(128+64+32)).

Each variant is checked against float64 into a NaN-poisoned C, then timed with cuBLAS
(``torch._scaled_mm``, fast accumulation) and ``scaled_matmul``'s default in 5 interleaved,
rotated replicates (do_bench medians, L2 flushed). One JSON line a shape.

    python3 docs/data/bench/composite/fp8_probe.py OUT.jsonl [deeper|resident|mid]   (on a GPU)
"""
import json
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.harness import checked_medians


@triton.jit
def _part(a, bt_desc, k0, n0, acc):
    return tl.dot(a, bt_desc.load([n0, k0]).T, acc)


@triton.jit
def _kernel(a1, a2, b1, b2, b3, c11, c12, c13, c21, c22, c23, sa_ptr, sb_ptr, M, N, K,
            BM1: tl.constexpr, BM2: tl.constexpr, BN1: tl.constexpr, BN2: tl.constexpr,
            BN3: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    tiles_m = tl.cdiv(M, BM1 + BM2)
    tiles_n = tl.cdiv(N, BN1 + BN2 + BN3)
    pid = tl.program_id(0)
    # grouped: GROUP tile rows at a time, down each column
    per_group = GROUP * tiles_n
    first_m = (pid // per_group) * GROUP
    rows = tl.minimum(tiles_m - first_m, GROUP)
    pid_m = first_m + (pid % per_group) % rows
    pid_n = (pid % per_group) // rows
    m0 = pid_m * (BM1 + BM2)
    n0 = pid_n * (BN1 + BN2 + BN3)
    acc11 = tl.zeros((BM1, BN1), dtype=tl.float32)
    if BN2 > 0:
        acc12 = tl.zeros((BM1, BN2), dtype=tl.float32)
    if BN3 > 0:
        acc13 = tl.zeros((BM1, BN3), dtype=tl.float32)
    if BM2 > 0:
        acc21 = tl.zeros((BM2, BN1), dtype=tl.float32)
        if BN2 > 0:
            acc22 = tl.zeros((BM2, BN2), dtype=tl.float32)
        if BN3 > 0:
            acc23 = tl.zeros((BM2, BN3), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        k0 = k * BK
        x1 = a1.load([m0, k0])
        y1 = b1.load([n0, k0]).T
        acc11 = tl.dot(x1, y1, acc11)
        if BN2 > 0:
            y2 = b2.load([n0 + BN1, k0]).T
            acc12 = tl.dot(x1, y2, acc12)
        if BN3 > 0:
            y3 = b3.load([n0 + BN1 + BN2, k0]).T
            acc13 = tl.dot(x1, y3, acc13)
        if BM2 > 0:
            x2 = a2.load([m0 + BM1, k0])
            acc21 = tl.dot(x2, y1, acc21)
            if BN2 > 0:
                acc22 = tl.dot(x2, y2, acc22)
            if BN3 > 0:
                acc23 = tl.dot(x2, y3, acc23)
    s = tl.load(sa_ptr) * tl.load(sb_ptr)
    c11.store([m0, n0], (acc11 * s).to(c11.dtype))
    if BN2 > 0:
        c12.store([m0, n0 + BN1], (acc12 * s).to(c12.dtype))
    if BN3 > 0:
        c13.store([m0, n0 + BN1 + BN2], (acc13 * s).to(c13.dtype))
    if BM2 > 0:
        c21.store([m0 + BM1, n0], (acc21 * s).to(c21.dtype))
        if BN2 > 0:
            c22.store([m0 + BM1, n0 + BN1], (acc22 * s).to(c22.dtype))
        if BN3 > 0:
            c23.store([m0 + BM1, n0 + BN1 + BN2], (acc23 * s).to(c23.dtype))


def composite(a, bt, c, sa, sb, bm, bn, bk, stages, warps):
    """A launch closure for parts ``bm`` (1 or 2) and ``bn`` (1 to 3)."""
    bm1, bm2 = (*bm, 0)[:2]
    bn1, bn2, bn3 = (*bn, 0, 0)[:3]
    M, K = a.shape
    N = bt.shape[0]

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm1, bk]), d(a, [bm2 or bm1, bk]), d(bt, [bn1, bk]), d(bt, [bn2 or bn1, bk]),
             d(bt, [bn3 or bn1, bk])]
    descs += [d(c, [x or bm1, y or bn1]) for x in (bm1, bm2) for y in (bn1, bn2, bn3)]
    grid = (triton.cdiv(M, bm1 + bm2) * triton.cdiv(N, bn1 + bn2 + bn3),)

    def run(out=c):
        k = _kernel[grid](*descs, sa, sb, M, N, K, BM1=bm1, BM2=bm2, BN1=bn1, BN2=bn2,
                          BN3=bn3, BK=bk, GROUP=8, num_stages=stages, num_warps=warps)
        info.setdefault("shared_bytes", k.metadata.shared)
        info.setdefault("regs_per_thread", k.n_regs)
        return out
    info = {}
    run.info = info
    return run


VARIANTS = {  # label: (bm parts, bn parts, bk, stages, warps)
    "128x128/s4/w8": ((128,), (128,), 128, 4, 8),
    "128x(128+64)/s4/w8": ((128,), (128, 64), 128, 4, 8),
    "128x(128+64+32)/s3/w8": ((128,), (128, 64, 32), 128, 3, 8),
    "128x(128+64+32)/s4/w8": ((128,), (128, 64, 32), 128, 4, 8),
    "128x(64+32+16)/s4/w4": ((128,), (64, 32, 16), 128, 4, 4),
    "128x(64+32+16)/s6/w4": ((128,), (64, 32, 16), 128, 6, 4),
    "(128+128)x(64+32+16)/s4/w8": ((128, 128), (64, 32, 16), 128, 4, 8),
    "64x(128+64+32)/s4/w4": ((64,), (128, 64, 32), 128, 4, 4),
}
SHAPES = [(256, 14336, 4096), (128, 14336, 4096), (256, 28672, 4096), (512, 14336, 4096),
          (384, 14336, 4096), (192, 8192, 4096)]
#: ``deeper``: the second run, after the first had the (128+128)x(64+32+16) tile level with
#: the default and the probe's plain 128x128 in 4 stages 22% behind it: deeper pipelines,
#: and K steps of 64 to make room for them, on the three shapes the composite tiles fill
if len(sys.argv) > 2 and sys.argv[2] == "deeper":
    VARIANTS = {
        "128x128x128/s6/w8": ((128,), (128,), 128, 6, 8),
        "128x128x128/s6/w4": ((128,), (128,), 128, 6, 4),
        "(128+128)x(64+32+16)x128/s4/w8": ((128, 128), (64, 32, 16), 128, 4, 8),
        "(128+128)x(64+32+16)x64/s6/w8": ((128, 128), (64, 32, 16), 64, 6, 8),
        "(128+128)x(64+32+16)x64/s8/w8": ((128, 128), (64, 32, 16), 64, 8, 8),
        "128x(128+64+32)x64/s6/w8": ((128,), (128, 64, 32), 64, 6, 8),
        "128x(128+64+32)x64/s8/w8": ((128,), (128, 64, 32), 64, 8, 8),
        "128x(64+32+16)x128/s7/w4": ((128,), (64, 32, 16), 128, 7, 4),
        "128x(64+32+16)x64/s10/w4": ((128,), (64, 32, 16), 64, 10, 4),
    }
    SHAPES = [(256, 14336, 4096), (128, 14336, 4096), (256, 28672, 4096)]
#: ``resident``: the third run, plain tiles small enough in shared memory for two programs an
#: SM, so that 224 tiles of 128x128 at 256x14336x4096 run in one round of 264 slots
if len(sys.argv) > 2 and sys.argv[2] == "resident":
    VARIANTS = {
        "128x128x128/s6/w4": ((128,), (128,), 128, 6, 4),
        "128x128x128/s2/w4": ((128,), (128,), 128, 2, 4),
        "128x128x64/s3/w4": ((128,), (128,), 64, 3, 4),
        "128x128x64/s4/w4": ((128,), (128,), 64, 4, 4),
        "64x128x128/s4/w4": ((64,), (128,), 128, 4, 4),
        "128x64x128/s4/w4": ((128,), (64,), 128, 4, 4),
        "64x256x128/s3/w4": ((64,), (256,), 128, 3, 4),
    }
    SHAPES = [(256, 14336, 4096), (128, 14336, 4096), (256, 28672, 4096), (512, 14336, 4096),
              (384, 14336, 4096)]

#: ``mid``: the fourth run, aligned mid-size shapes whose 128x128 tiles fill just over two
#: waves (6016x768x2432: 282 tiles, 0.67x `_scaled_mm` in docs/data/bench/heldout_draw/),
#: where 192x192 tiles fill one (128 tiles); 2688x768x2432 (126 tiles of 128x128) as control
if len(sys.argv) > 2 and sys.argv[2] == "mid":
    VARIANTS = {
        "128x128x128/s4/w8": ((128,), (128,), 128, 4, 8),
        "128x128x128/s6/w4": ((128,), (128,), 128, 6, 4),
        "(128+64)x(128+64)x128/s3/w8": ((128, 64), (128, 64), 128, 3, 8),
        "(128+64)x(128+64)x64/s5/w8": ((128, 64), (128, 64), 64, 5, 8),
        "128x(128+64)x128/s4/w8": ((128,), (128, 64), 128, 4, 8),
        "(128+64)x128x128/s4/w8": ((128, 64), (128,), 128, 4, 8),
    }
    SHAPES = [(6016, 768, 2432), (2304, 2048, 4096), (3072, 1536, 2048), (2688, 768, 2432)]

with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = (torch.randn(M, K, device="cuda") * 2).to(torch.float8_e4m3fn)
        bt = (torch.randn(N, K, device="cuda") * 2).to(torch.float8_e4m3fn)
        sa = torch.tensor([0.7], device="cuda")
        sb = torch.tensor([1.3], device="cuda")
        ref = (a.double() @ bt.double().T) * (0.7 * 1.3)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch._scaled_mm(a, bt.T, sa, sb,
                                                         out_dtype=torch.bfloat16,
                                                         use_fast_accum=True),
                "default": lambda out=c: scaled_matmul(a, bt.T, sa, sb, out=out)}
        for label, (bm, bn, bk, st, w) in VARIANTS.items():
            runs[label] = composite(a, bt, c, sa, sb, bm, bn, bk, st, w)

        def error(fn):
            c.fill_(float("nan"))
            got = fn()
            return float((got.double() - ref).norm() / ref.norm())
        res = checked_medians(runs, error, 1e-2, 5, warmup_ms=10, rep_ms=40)
        kernels = {k: getattr(v, "info", None) for k, v in runs.items()}
        row = {"shape": [M, N, K], **res, "kernels": kernels,
               "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        cub = res["ms"].get("cublas")
        print(f"{M}x{N}x{K}: " + "  ".join(
            f"{k} {v * 1e3:.1f}us ({cub / v:.3f})" for k, v in sorted(res["ms"].items(),
                                                                      key=lambda x: x[1]))
            + (f"  BAD {res['bad']}" if res["bad"] else ""), flush=True)
        print("  " + "  ".join(f"{k}: {v}" for k, v in kernels.items() if v), flush=True)
