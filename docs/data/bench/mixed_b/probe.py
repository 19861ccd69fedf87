"""Ragged 16-bit shapes whose B rows TMA reads slowly (rows not on 64-byte boundaries): A by
TMA and B by pointer loads in one kernel ("mixed"), against B by TMA as given, the library's
call (B copied into 128-byte rows, then TMA), pointer loads for both (``tma=False``), cuBLAS,
and the library's call on the tile-aligned neighbour.

Mixed variants: ``mask`` masks every K step of B where K is no multiple of the tile; ``last``
runs the whole K steps unmasked and masks only the last. Columns past N wrap (``% N``) where
N is a multiple of 16, and are masked otherwise. grouped(8), C by TMA where its rows are
16-byte aligned, else masked stores. Every output checked against float64 into a
NaN-poisoned C, then all timed in 5 interleaved, rotated replicates (do_bench medians).

    python3 docs/data/bench/mixed_b/probe.py OUT.jsonl     (on a GPU)

``tiles`` mode: B by TMA as given and on its pitched copy (the GEMM alone, the copy made
beforehand), in four tiles, to see whether a tile with fewer B loads a FLOP (256x128) reads a
misaligned B at the copy's speed:

    python3 docs/data/bench/mixed_b/probe.py OUT.jsonl tiles
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


@triton.jit
def _grouped(t, tiles_m, tiles_n):
    per_group = 8 * tiles_n
    first_m = (t // per_group) * 8
    rows = tl.minimum(tiles_m - first_m, 8)
    return first_m + (t % per_group) % rows, (t % per_group) // rows


@triton.jit
def _kernel(a_desc, b_desc, b_ptr, c_desc, c_ptr, M, N, K, stride_bk, stride_cm,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, B_TMA: tl.constexpr,
            LAST_ONLY: tl.constexpr, WRAP_N: tl.constexpr, VEC: tl.constexpr,
            C_TMA: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    pm, pn = _grouped(tl.program_id(0), tiles_m, tiles_n)
    steps = tl.cdiv(K, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    if B_TMA:
        for k in range(0, steps):
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([k * BK, pn * BN]), acc)
    else:
        if VEC > 1:
            stride_bk = (stride_bk // VEC) * VEC
        offs_k = tl.arange(0, BK)
        if WRAP_N:
            offs_n = (pn * BN + tl.arange(0, BN)) % N
            n_ok = offs_n[None, :] >= 0
        else:
            offs_n = pn * BN + tl.arange(0, BN)
            n_ok = offs_n[None, :] < N
        b_ptrs = b_ptr + offs_k[:, None].to(tl.int64) * stride_bk + offs_n[None, :]
        whole = K // BK if LAST_ONLY else 0
        for k in range(0, whole):
            if WRAP_N:
                b = tl.load(b_ptrs)
            else:
                b = tl.load(b_ptrs, mask=n_ok, other=0.0)
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b, acc)
            b_ptrs += BK * stride_bk
        for k in range(whole, steps):
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BK) & n_ok, other=0.0)
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b, acc)
            b_ptrs += BK * stride_bk
    if C_TMA:
        c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))
    else:
        offs_m = pm * BM + tl.arange(0, BM)
        offs_cn = pn * BN + tl.arange(0, BN)
        tl.store(c_ptr + offs_m[:, None].to(tl.int64) * stride_cm + offs_cn[None, :],
                 acc.to(c_ptr.dtype.element_ty),
                 mask=(offs_m[:, None] < M) & (offs_cn[None, :] < N))


def launcher(a, b, c, b_tma: bool, last_only: bool, bm, bn, bk, stages, warps):
    M, K = a.shape
    N = b.shape[1]

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    c_tma = (c.stride(0) * c.element_size()) % 16 == 0
    a_desc = d(a, [bm, bk])
    b_desc = d(b, [bk, bn]) if b_tma else a_desc
    c_desc = d(c, [bm, bn]) if c_tma else a_desc
    vec = 8 if b.stride(0) % 8 == 0 else 1
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)

    def run(out=c):
        _kernel[grid](a_desc, b_desc, b, c_desc, c, M, N, K, b.stride(0), c.stride(0),
                      BM=bm, BN=bn, BK=bk, B_TMA=b_tma, LAST_ONLY=last_only,
                      WRAP_N=N % 16 == 0, VEC=vec, C_TMA=c_tma, num_stages=stages,
                      num_warps=warps)
        return out
    return run


SHAPES = [(3000, 5000, 4000), (9000, 7000, 3000), (6000, 7000, 3000), (2000, 5000, 4000),
          (5003, 2999, 1000), (4000, 4000, 4000)]
TILES = {"256": (128, 256, 64, 3, 8), "128": (128, 128, 64, 4, 8)}


def neighbour(M, N, K):
    return (-(-M // 128) * 128, -(-N // 128) * 128, -(-K // 64) * 64)


TILE_SHAPES = [(3000, 5000, 4000), (2000, 5000, 4000), (1000, 5000, 4000), (9000, 7000, 3000),
               (6000, 7000, 3000)]
TILE_CONFIGS = {"128x256/s3": (128, 256, 64, 3, 8), "128x256/s4": (128, 256, 64, 4, 8),
                "256x128/s3": (256, 128, 64, 3, 8), "256x128/s4": (256, 128, 64, 4, 8)}


def tiles_mode(path):
    from swizzlekit.kernels.triton.copies import _pitched

    with open(path, "a") as f:
        for M, N, K in TILE_SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            bp = _pitched(b)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            ref = a.double() @ b.double()
            runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                    "matmul": lambda out=c: matmul(a, b, out=out),
                    "copy alone": lambda: _pitched(b)}
            for name, cfg in TILE_CONFIGS.items():
                runs[f"given {name}"] = launcher(a, b, c, True, False, *cfg)
                runs[f"copy {name}"] = launcher(a, bp, c, True, False, *cfg)
            errors = {}
            for name, fn in runs.items():
                if name == "copy alone":
                    continue
                c.fill_(float("nan"))
                try:
                    fn()
                    torch.cuda.synchronize()
                    errors[name] = float((c.double() - ref).norm() / ref.norm())
                except Exception as e:        # a config that does not fit: kept as its text
                    errors[name] = f"{type(e).__name__}: {str(e)[:200]}"
            bad = {k: e for k, e in errors.items() if not (isinstance(e, float) and e < 1e-2)}
            timed = {k: v for k, v in runs.items() if k not in bad}
            times = interleaved_ms(timed, 5, warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            row = {"mode": "tiles", "shape": [M, N, K], "errors": errors, "bad": bad,
                   "ms": ms, "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + (f"  BAD {bad}" if bad else ""), flush=True)


if __name__ == "__main__" and sys.argv[2:] == ["tiles"]:
    tiles_mode(sys.argv[1])
elif __name__ == "__main__":
    torch.set_float32_matmul_precision("high")
    with open(sys.argv[1], "a") as f:
        for M, N, K in SHAPES:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            m2, n2, k2 = neighbour(M, N, K)
            a2 = torch.randn(m2, k2, device="cuda", dtype=torch.bfloat16)
            b2 = torch.randn(k2, n2, device="cuda", dtype=torch.bfloat16)
            c2 = torch.empty(m2, n2, device="cuda", dtype=torch.bfloat16)
            ref = a.double() @ b.double()
            runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                    "matmul": lambda out=c: matmul(a, b, out=out),
                    "matmul tma=False": lambda out=c: matmul(a, b, out=out, tma=False)}
            for tile, cfg in TILES.items():
                if (b.stride(0) * b.element_size()) % 16 == 0:     # TMA can read B at all
                    runs[f"B tma as given {tile}"] = launcher(a, b, c, True, False, *cfg)
                runs[f"mixed mask {tile}"] = launcher(a, b, c, False, False, *cfg)
                runs[f"mixed last {tile}"] = launcher(a, b, c, False, True, *cfg)
            errors = {}
            for name, fn in runs.items():
                c.fill_(float("nan"))
                try:
                    fn()
                    torch.cuda.synchronize()
                    errors[name] = float((c.double() - ref).norm() / ref.norm())
                except Exception as e:        # a config that does not fit: kept as its text
                    errors[name] = f"{type(e).__name__}: {str(e)[:200]}"
            bad = {k: e for k, e in errors.items() if not (isinstance(e, float) and e < 1e-2)}
            timed = {k: v for k, v in runs.items() if k not in bad}
            timed["neighbour matmul"] = lambda: matmul(a2, b2, out=c2)
            timed["neighbour cublas"] = lambda: torch.matmul(a2, b2, out=c2)
            times = interleaved_ms(timed, 5, warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            row = {"shape": [M, N, K], "neighbour": [m2, n2, k2], "errors": errors, "bad": bad,
                   "ms": ms, "replicates": times, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            flop = 2 * M * N * K
            print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
                  + f"  | x cublas: " + " ".join(f"{k}={ms['cublas'] / v:.3f}"
                                                 for k, v in ms.items())
                  + (f"  BAD {bad}" if bad else ""), flush=True)
