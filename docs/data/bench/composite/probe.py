"""Tiles as wide as cuBLAS's, out of power-of-two parts: a 128 x 160 tile as a 128 x 128 and a
128 x 32 product side by side, each K step loading A once and B in two TMA boxes, so that the
tile count lands near a whole number of waves (cuBLAS runs 128x160 at 640x4096x14336: 130
tiles on 132 SMs, ``../ragged_m/ncu_cublas_h100.csv``), where Triton's blocks must be powers
of two. bf16, TMA loads, one program a tile in grouped(8) order; beside it ``matmul`` and
cuBLAS. Each checked against float64 (rows sampled) into a NaN-poisoned C, then timed in 5
interleaved, rotated replicates (do_bench medians, L2 flushed). One JSON line a shape.

    python3 docs/data/bench/composite/probe.py OUT.jsonl [tune]     (on a GPU)
"""
import json
import pathlib
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "stream_k"))
from probe import _grouped, error  # noqa: E402

from swizzlekit.kernels import matmul  # noqa: E402
from swizzlekit.lab.harness import checked_medians  # noqa: E402

#: shape -> the (BLOCK_M, BN1, BN2, BLOCK_K, stages, warps) tried there
SHAPES = {
    (640, 4096, 14336): [(128, 128, 32, 64, 4, 8), (128, 128, 32, 64, 5, 8), (128, 128, 0, 64, 5, 8)],
    (600, 4096, 14336): [(128, 128, 32, 64, 4, 8), (128, 128, 32, 64, 5, 8)],
    (768, 4096, 14336): [(128, 128, 64, 64, 4, 8), (128, 128, 32, 64, 4, 8)],
    (317, 4096, 14336): [(128, 64, 32, 64, 6, 8), (128, 64, 16, 64, 6, 8), (128, 128, 0, 64, 5, 8)],
    (384, 4096, 14336): [(128, 64, 32, 64, 6, 8), (128, 128, 0, 64, 5, 8)],
    (600, 14336, 4096): [(128, 128, 64, 64, 4, 8), (128, 128, 32, 64, 4, 8)],
    (4096, 4096, 4096): [(128, 128, 64, 64, 4, 8), (128, 128, 0, 64, 5, 8)],
}


@triton.jit
def _composite_body(a_desc, b1_desc, b2_desc, c1_desc, c2_desc, M, N, K, GROUP: tl.constexpr,
                    BLOCK_M: tl.constexpr, BN1: tl.constexpr, BN2: tl.constexpr,
                    BLOCK_K: tl.constexpr):
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BN1 + BN2)
    pid_m, pid_n = _grouped(tl.program_id(0), tiles_m, tiles_n, GROUP)
    m0, n0 = pid_m * BLOCK_M, pid_n * (BN1 + BN2)
    acc1 = tl.zeros((BLOCK_M, BN1), dtype=tl.float32)
    if BN2 > 0:
        acc2 = tl.zeros((BLOCK_M, BN2), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([m0, k * BLOCK_K])
        acc1 = tl.dot(a, b1_desc.load([k * BLOCK_K, n0]), acc1)
        if BN2 > 0:
            acc2 = tl.dot(a, b2_desc.load([k * BLOCK_K, n0 + BN1]), acc2)
    c1_desc.store([m0, n0], acc1.to(c1_desc.dtype))
    if BN2 > 0:
        c2_desc.store([m0, n0 + BN1], acc2.to(c2_desc.dtype))


@triton.jit
def _composite(a_desc, b1_desc, b2_desc, c1_desc, c2_desc, M, N, K, GROUP: tl.constexpr,
               BLOCK_M: tl.constexpr, BN1: tl.constexpr, BN2: tl.constexpr,
               BLOCK_K: tl.constexpr):
    _composite_body(a_desc, b1_desc, b2_desc, c1_desc, c2_desc, M, N, K, GROUP, BLOCK_M, BN1,
                    BN2, BLOCK_K)


@triton.jit
def _composite_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                   GROUP: tl.constexpr, BLOCK_M: tl.constexpr, BN1: tl.constexpr,
                   BN2: tl.constexpr, BLOCK_K: tl.constexpr):
    """``_composite`` on plain pointers: the TMA descriptors made in the kernel (a launch
    that takes tensors, as the library's pointer kernel does)."""
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [stride_am, 1], [BLOCK_M, BLOCK_K])
    b1_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [stride_bk, 1], [BLOCK_K, BN1])
    c1_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [stride_cm, 1], [BLOCK_M, BN1])
    b2_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [stride_bk, 1], [BLOCK_K, BN2])
    c2_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [stride_cm, 1], [BLOCK_M, BN2])
    _composite_body(a_desc, b1_desc, b2_desc, c1_desc, c2_desc, M, N, K, GROUP, BLOCK_M, BN1,
                    BN2, BLOCK_K)


def _scratch(size, alignment, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


def composite_ptr(a, b, c, cfg):
    bm, bn1, bn2, bk, stages, warps = cfg
    M, K = a.shape
    N = b.shape[1]
    triton.set_allocator(_scratch)
    grid = (-(-M // bm) * -(-N // (bn1 + bn2)),)
    _composite_ptr[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), GROUP=8,
                         BLOCK_M=bm, BN1=bn1, BN2=bn2, BLOCK_K=bk, num_stages=stages,
                         num_warps=warps)
    return c


def composite(a, b, c, cfg):
    bm, bn1, bn2, bk, stages, warps = cfg
    M, K = a.shape
    N = b.shape[1]

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    ad, b1, c1 = d(a, [bm, bk]), d(b, [bk, bn1]), d(c, [bm, bn1])
    b2, c2 = (d(b, [bk, bn2]), d(c, [bm, bn2])) if bn2 else (b1, c1)
    grid = (-(-M // bm) * -(-N // (bn1 + bn2)),)
    _composite[grid](ad, b1, b2, c1, c2, M, N, K, GROUP=8, BLOCK_M=bm, BN1=bn1, BN2=bn2,
                     BLOCK_K=bk, num_stages=stages, num_warps=warps)
    return c


#: ``tune``: stages, warps and K steps of the composite tile at two wave-edge shapes, with
#: host descriptors and with the kernel's own (``ptr``)
TUNE = {
    (640, 4096, 14336): [(128, 128, 32, 64, 3, 8), (128, 128, 32, 64, 4, 8),
                         (128, 128, 32, 64, 5, 8), (128, 128, 32, 32, 8, 8),
                         (128, 128, 32, 128, 2, 8)],
    (768, 4096, 14336): [(128, 128, 64, 64, 3, 8), (128, 128, 64, 64, 4, 8),
                         (128, 128, 64, 32, 6, 8)],
}

if __name__ == "__main__":
    tune = len(sys.argv) > 2 and sys.argv[2] == "tune"
    if tune:
        SHAPES = TUNE
    with open(sys.argv[1], "a") as f:
        for (M, N, K), cfgs in SHAPES.items():
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                    "default": lambda out=c: matmul(a, b, out=out)}
            tiles = {}
            for cfg in cfgs:
                name = "{}x{}+{}x{}/s{}/w{}".format(*cfg)
                tiles[name] = -(-M // cfg[0]) * -(-N // (cfg[1] + cfg[2]))
                runs[name] = lambda out=c, cfg=cfg: composite(a, b, out, cfg)
                if tune:
                    runs[name + " ptr"] = lambda out=c, cfg=cfg: composite_ptr(a, b, out, cfg)
            got = checked_medians(runs, lambda fn: error(fn, a, b, M, N), warmup_ms=10,
                                  rep_ms=40)
            errs, bad, ms, times = (got[k] for k in ("errors", "bad", "ms", "replicates"))
            row = {"shape": [M, N, K], "tiles": tiles, "errors": errs, "bad": bad, "ms": ms,
                   "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + (f"  BAD {bad}" if bad else ""), flush=True)
