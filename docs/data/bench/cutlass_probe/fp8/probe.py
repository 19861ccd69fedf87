"""Time CUTLASS's Hopper fp8 GEMM (gemm_fp8.cu, each variant a .so) against
``torch._scaled_mm`` (fast accumulation) and swizzlekit's ``scaled_matmul``: e4m3 A
row-major, B K-major, one fp32 scale each, bf16 out.

    python3 probe.py SO_DIR OUT.jsonl [MxNxK ...]

Every kernel's output is first checked against the float64 product of the scaled operands
on fresh random inputs, the output poisoned with NaN; then 5 interleaved, rotated
replicates of do_bench means (L2 flushed) per kernel; µs.
"""
import ctypes
import glob
import json
import os
import sys

import torch
import triton

from swizzlekit.kernels.triton.scaled import scaled_matmul

SHAPES = ["256x14336x4096", "512x14336x4096", "128x14336x4096", "256x8192x8192",
          "4096x4096x4096", "2048x14336x8192", "8192x8192x8192", "1024x32768x4096"]
WORKSPACE = 1 << 26


def load(so_dir):
    out = {}
    for path in sorted(glob.glob(os.path.join(so_dir, "gemm_fp8_*.so"))):
        fn = ctypes.CDLL(path).probe_fp8_gemm
        fn.restype = ctypes.c_int
        fn.argtypes = ([ctypes.c_void_p] * 4 + [ctypes.c_int] * 3 + [ctypes.c_long] * 3
                       + [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p])
        out["cutlass_" + os.path.basename(path)[9:-3]] = fn
    return out


def runner(fn, ws):
    def run(a, bt, sa, sb, alpha, c):
        M, K = a.shape
        N = bt.shape[0]
        rc = fn(a.data_ptr(), bt.data_ptr(), c.data_ptr(), alpha.data_ptr(), M, N, K,
                a.stride(0), bt.stride(0), c.stride(0), ws.data_ptr(), WORKSPACE,
                torch.cuda.current_stream().cuda_stream)
        if rc:
            raise RuntimeError(f"probe_fp8_gemm returned {rc}")
        return c
    return run


def main():
    so_dir, out_path = sys.argv[1], sys.argv[2]
    shapes = sys.argv[3:] or SHAPES
    ws = torch.empty(WORKSPACE, dtype=torch.uint8, device="cuda")
    kernels = {
        "cublas": lambda a, bt, sa, sb, al, c: torch._scaled_mm(
            a, bt.t(), sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True, out=c),
        "scaled_matmul": lambda a, bt, sa, sb, al, c: scaled_matmul(a, bt.t(), sa, sb, out=c)}
    kernels.update({k: runner(f, ws) for k, f in load(so_dir).items()})
    gen = torch.Generator(device="cuda").manual_seed(0)
    with open(out_path, "w") as log:
        for s in shapes:
            M, N, K = map(int, s.split("x"))
            a32 = torch.randn(M, K, device="cuda", generator=gen)
            b32 = torch.randn(N, K, device="cuda", generator=gen)
            sa = (a32.abs().max() / 448).float().reshape(())
            sb = (b32.abs().max() / 448).float().reshape(())
            a = (a32 / sa).to(torch.float8_e4m3fn)
            bt = (b32 / sb).to(torch.float8_e4m3fn)
            alpha = (sa * sb).reshape(1)
            ref = (a.double() * sa.double()) @ (bt.double() * sb.double()).t()
            rec = {"shape": s, "err": {}, "us": {}}
            for name, k in list(kernels.items()):
                c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
                try:
                    k(a, bt, sa, sb, alpha, c)
                    torch.cuda.synchronize()
                    rec["err"][name] = float((c.double() - ref).norm() / ref.norm())
                except Exception as e:          # a variant that cannot run this shape
                    rec["err"][name] = repr(e)[:200]
            ok = [n for n, e in rec["err"].items() if isinstance(e, float) and e < 1e-2]
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            reps = {n: [] for n in ok}
            for r in range(5):
                for n in ok[r % len(ok):] + ok[:r % len(ok)]:
                    reps[n].append(triton.testing.do_bench(
                        lambda: kernels[n](a, bt, sa, sb, alpha, c), warmup=25, rep=100) * 1e3)
            rec["us"] = {n: sorted(v)[2] for n, v in reps.items()}
            rec["replicates"] = reps
            log.write(json.dumps(rec) + "\n")
            log.flush()
            cub = rec["us"].get("cublas")
            print(s, " ".join(f"{n} {u:.1f} ({cub / u:.3f})" if cub else f"{n} {u:.1f}"
                              for n, u in rec["us"].items()),
                  "| bad:", {n: e for n, e in rec["err"].items() if n not in ok}, flush=True)


if __name__ == "__main__":
    main()
