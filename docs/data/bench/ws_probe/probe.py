"""Probe: does Triton's warp specialization on Hopper (``tl.range(..., warp_specialize=True)``)
lift the TMA GEMM where swizzlekit's kernel trails cuBLAS, TF32 (B K-major) at large sizes and
fp8 at M = 128-256? A tutorial-style TMA kernel (host tensor descriptors, grouped order), each
config with and without warp specialization, against cuBLAS (TF32: torch.matmul; fp8:
torch._scaled_mm with fast accumulation) timed in the same process, 5 interleaved replicates of
triton.testing.do_bench each (median of medians); every result checked against float64 first.

python3 probe.py OUT.jsonl
"""
import json
import statistics
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def _gemm(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
          BK: tl.constexpr, STAGES: tl.constexpr, WS: tl.constexpr, FP8: tl.constexpr):
    pid = tl.program_id(0)
    tm, tn = tl.cdiv(M, BM), tl.cdiv(N, BN)
    group = 8 * tn
    first = (pid // group) * 8
    rows = min(tm - first, 8)
    pm = first + (pid % group) % rows
    pn = (pid % group) // rows
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES, warp_specialize=WS):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([pn * BN, k * BK])
        if FP8:
            acc = tl.dot(a, b.T, acc)
        else:
            acc = tl.dot(a, b.T, acc, input_precision="tf32")
    c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))


def run(a, bt, c, BM, BN, BK, stages, warps, ws, fp8):
    M, K = a.shape
    N = bt.shape[0]
    ad = TensorDescriptor.from_tensor(a, [BM, BK])
    bd = TensorDescriptor.from_tensor(bt, [BN, BK])
    cd = TensorDescriptor.from_tensor(c, [BM, BN])
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    return lambda: _gemm[grid](ad, bd, cd, M, N, K, BM, BN, BK, stages, ws, fp8,
                               num_warps=warps)


def main(out):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                  device="cuda"))
    cases = [("tf32", (4096, 4096, 4096)), ("tf32", (8192, 8192, 8192)),
             ("tf32", (2048, 14336, 8192)),
             ("fp8", (128, 4096, 4096)), ("fp8", (256, 14336, 4096)), ("fp8", (256, 8192, 8192))]
    tiles = {"tf32": [(128, 256, 32, 3, 8), (128, 128, 32, 4, 8), (256, 128, 32, 3, 8),
                      (128, 128, 32, 4, 4), (128, 256, 32, 2, 8)],
             "fp8": [(64, 128, 128, 4, 4), (128, 128, 128, 4, 4), (128, 256, 128, 3, 8),
                     (64, 256, 128, 4, 4), (128, 128, 128, 5, 8), (64, 64, 256, 4, 4)]}
    f = open(out, "w")
    for prec, (M, N, K) in cases:
        torch.manual_seed(0)
        a32 = torch.randn(M, K, device="cuda")
        b32 = torch.randn(N, K, device="cuda")               # Bt: B K-major
        fp8 = prec == "fp8"
        if fp8:
            a, bt = a32.to(torch.float8_e4m3fn), b32.to(torch.float8_e4m3fn)
            ref = a.double() @ bt.double().T
            out_dtype = torch.bfloat16
            one = torch.ones((), device="cuda")
            base = lambda: torch._scaled_mm(a, bt.T, one, one, out_dtype=torch.bfloat16,
                                            use_fast_accum=True)
        else:
            a, bt = a32, b32
            ref = a.double() @ bt.double().T
            out_dtype = torch.float32
            torch.backends.cuda.matmul.allow_tf32 = True
            b_row = bt.T.contiguous()                          # cuBLAS on a row-major B
            base = lambda: torch.matmul(a, b_row)
        fns = {"cublas": base}
        for BM, BN, BK, st, w in tiles[prec]:
            for ws in (False, True):
                c = torch.full((M, N), float("nan"), device="cuda", dtype=out_dtype)
                name = f"{BM}x{BN}x{BK}/s{st}/w{w}" + ("/ws" if ws else "")
                try:
                    fn = run(a, bt, c, BM, BN, BK, st, w, ws, fp8)
                    fn()
                    torch.cuda.synchronize()
                    err = float(((c.double() - ref).norm() / ref.norm()).item())
                except Exception as e:                         # noqa: BLE001 a probe
                    f.write(json.dumps({"prec": prec, "shape": [M, N, K], "config": name,
                                        "error": str(e)[:300]}) + "\n")
                    continue
                if not err < (1e-2 if fp8 else 1e-3):
                    f.write(json.dumps({"prec": prec, "shape": [M, N, K], "config": name,
                                        "bad_err": err}) + "\n")
                    continue
                fns[name] = fn
        reps = {k: [] for k in fns}
        names = list(fns)
        for r in range(5):
            for k in names[r % len(names):] + names[:r % len(names)]:
                reps[k].append(triton.testing.do_bench(fns[k], warmup=10, rep=40))
        base_ms = statistics.median(reps["cublas"])
        for k, v in reps.items():
            ms = statistics.median(v)
            row = {"prec": prec, "shape": [M, N, K], "config": k, "ms": round(ms, 5),
                   "tflops": round(2 * M * N * K / ms / 1e9, 1),
                   "vs_cublas": round(base_ms / ms, 3), "spread": round((max(v) - min(v)) / ms, 3),
                   "gpu": torch.cuda.get_device_name()}
            f.write(json.dumps(row) + "\n")
            print(row, flush=True)
        f.flush()


if __name__ == "__main__":
    main(sys.argv[1])
