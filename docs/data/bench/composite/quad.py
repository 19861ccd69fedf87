"""Composite tiles along M too, for M just past a multiple of 128: a (BM1 + BM2) x (BN1 + BN2)
tile as up to four products (two A boxes, two B boxes, each K step), so that 317, 522 or 529
rows split into two or three tiles with little waste and the tile count lands near a wave.
bf16, TMA loads, one program a tile in grouped(8) order; beside them ``matmul`` and cuBLAS.
Each checked against float64 (rows sampled) into a NaN-poisoned C, then timed in 5
interleaved, rotated replicates (do_bench medians, L2 flushed). One JSON line a shape.

    python3 docs/data/bench/composite/quad.py OUT.jsonl [more]     (on a GPU)
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

#: shape -> (BM1, BM2, BN1, BN2, BLOCK_K, stages, warps) tried there
SHAPES = {
    (317, 4096, 14336): [(128, 32, 64, 0, 64, 6, 8), (128, 64, 64, 0, 64, 6, 8),
                         (128, 0, 64, 16, 64, 6, 8), (128, 32, 128, 0, 64, 4, 8)],
    (522, 4096, 8192): [(128, 64, 64, 32, 64, 5, 8), (128, 64, 128, 0, 64, 4, 8),
                        (128, 64, 64, 0, 64, 6, 8)],
    (529, 8192, 4096): [(128, 64, 128, 64, 64, 3, 8), (128, 64, 128, 0, 64, 4, 8),
                        (128, 64, 64, 32, 64, 5, 8)],
}


#: ``more``: M split against N split at the wave-edge shapes, where a 64-row second part
#: makes 64 x 128 products (wgmma's natural shape) and a 32-wide one 128 x 32 products
MORE = {
    (640, 4096, 14336): [(128, 0, 128, 32, 64, 4, 8), (128, 64, 128, 0, 64, 4, 8),
                         (128, 64, 128, 0, 64, 5, 8)],
    (768, 4096, 14336): [(128, 0, 128, 64, 64, 4, 8), (128, 64, 128, 0, 64, 4, 8)],
    (600, 14336, 4096): [(128, 0, 128, 64, 64, 4, 8), (128, 64, 128, 0, 64, 4, 8)],
    (1111, 4096, 11008): [(128, 64, 128, 64, 64, 3, 8), (128, 64, 128, 0, 64, 4, 8)],
    (703, 8192, 11008): [(128, 0, 128, 64, 64, 4, 8), (128, 64, 128, 0, 64, 4, 8)],
    (395, 6144, 4096): [(128, 0, 128, 64, 64, 4, 8), (128, 64, 128, 0, 64, 4, 8)],
}


@triton.jit
def _quad(a1_desc, a2_desc, b1_desc, b2_desc, c11, c12, c21, c22, M, N, K,
          GROUP: tl.constexpr, BM1: tl.constexpr, BM2: tl.constexpr, BN1: tl.constexpr,
          BN2: tl.constexpr, BLOCK_K: tl.constexpr):
    tiles_m = tl.cdiv(M, BM1 + BM2)
    tiles_n = tl.cdiv(N, BN1 + BN2)
    pid_m, pid_n = _grouped(tl.program_id(0), tiles_m, tiles_n, GROUP)
    m0, n0 = pid_m * (BM1 + BM2), pid_n * (BN1 + BN2)
    acc11 = tl.zeros((BM1, BN1), dtype=tl.float32)
    if BN2 > 0:
        acc12 = tl.zeros((BM1, BN2), dtype=tl.float32)
    if BM2 > 0:
        acc21 = tl.zeros((BM2, BN1), dtype=tl.float32)
        if BN2 > 0:
            acc22 = tl.zeros((BM2, BN2), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a1 = a1_desc.load([m0, k * BLOCK_K])
        b1 = b1_desc.load([k * BLOCK_K, n0])
        acc11 = tl.dot(a1, b1, acc11)
        if BN2 > 0:
            b2 = b2_desc.load([k * BLOCK_K, n0 + BN1])
            acc12 = tl.dot(a1, b2, acc12)
        if BM2 > 0:
            a2 = a2_desc.load([m0 + BM1, k * BLOCK_K])
            acc21 = tl.dot(a2, b1, acc21)
            if BN2 > 0:
                acc22 = tl.dot(a2, b2, acc22)
    c11.store([m0, n0], acc11.to(c11.dtype))
    if BN2 > 0:
        c12.store([m0, n0 + BN1], acc12.to(c12.dtype))
    if BM2 > 0:
        c21.store([m0 + BM1, n0], acc21.to(c21.dtype))
        if BN2 > 0:
            c22.store([m0 + BM1, n0 + BN1], acc22.to(c22.dtype))


def quad(a, b, c, cfg):
    bm1, bm2, bn1, bn2, bk, stages, warps = cfg
    M, K = a.shape
    N = b.shape[1]

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    bm2_, bn2_ = bm2 or bm1, bn2 or bn1          # unused boxes: any valid block
    descs = [d(a, [bm1, bk]), d(a, [bm2_, bk]), d(b, [bk, bn1]), d(b, [bk, bn2_]),
             d(c, [bm1, bn1]), d(c, [bm1, bn2_]), d(c, [bm2_, bn1]), d(c, [bm2_, bn2_])]
    grid = (-(-M // (bm1 + bm2)) * -(-N // (bn1 + bn2)),)
    _quad[grid](*descs, M, N, K, GROUP=8, BM1=bm1, BM2=bm2, BN1=bn1, BN2=bn2, BLOCK_K=bk,
                num_stages=stages, num_warps=warps)
    return c


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "more":
        SHAPES = MORE
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
                name = "({}+{})x({}+{})x{}/s{}/w{}".format(*cfg)
                tiles[name] = -(-M // (cfg[0] + cfg[1])) * -(-N // (cfg[2] + cfg[3]))
                runs[name] = lambda out=c, cfg=cfg: quad(a, b, out, cfg)
            got = checked_medians(runs, lambda fn: error(fn, a, b, M, N), warmup_ms=10,
                                  rep_ms=40)
            errs, bad, ms, times = (got[k] for k in ("errors", "bad", "ms", "replicates"))
            row = {"shape": [M, N, K], "tiles": tiles, "errors": errs, "bad": bad, "ms": ms,
                   "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + f"  tiles {tiles}" + (f"  BAD {bad}" if bad else ""), flush=True)
