"""Time CUTLASS's Hopper GEMM (gemm.cu, each variant compiled by build.sh) against cuBLAS and
swizzlekit's matmul, bf16, on B's misaligned row pitch and aligned neighbours.

    python3 probe.py SO_DIR OUT.jsonl [MxNxK ...]

Every call's output is first checked against a float64 product on fresh random inputs, the
output poisoned with NaN; then 5 interleaved, rotated replicates of do_bench means (L2
flushed) per kernel; µs.
"""
import ctypes
import glob
import json
import os
import sys

import torch
import triton

from swizzlekit.kernels import matmul

SHAPES = ["3000x5000x4000", "3072x5120x4032", "9000x7000x3000", "9088x7040x3008",
          "6000x7000x3000", "4096x4096x4096", "8192x8192x8192", "2048x2048x2048"]
WORKSPACE = 1 << 26


def load(so_dir):
    out = {}
    for path in sorted(glob.glob(os.path.join(so_dir, "gemm_*.so"))):
        lib = ctypes.CDLL(path)
        fn = lib.probe_gemm
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3 + [ctypes.c_void_p,
                                                                    ctypes.c_size_t,
                                                                    ctypes.c_void_p]
        out["cutlass_" + os.path.basename(path)[5:-3]] = fn
    return out


def runner(fn, ws):
    def run(a, b, c):
        rc = fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), a.shape[0], b.shape[1], a.shape[1],
                ws.data_ptr(), WORKSPACE, torch.cuda.current_stream().cuda_stream)
        if rc:
            raise RuntimeError(f"probe_gemm returned {rc}")
        return c
    return run


def main():
    so_dir, out_path = sys.argv[1], sys.argv[2]
    shapes = sys.argv[3:] or SHAPES
    ws = torch.empty(WORKSPACE, dtype=torch.uint8, device="cuda")
    kernels = {"cublas": lambda a, b, c: torch.matmul(a, b, out=c),
               "matmul": lambda a, b, c: matmul(a, b, out=c)}
    kernels.update({k: runner(f, ws) for k, f in load(so_dir).items()})
    gen = torch.Generator(device="cuda").manual_seed(0)
    with open(out_path, "w") as log:
        for s in shapes:
            M, N, K = map(int, s.split("x"))
            a = torch.randn(M, K, device="cuda", generator=gen).bfloat16()
            b = torch.randn(K, N, device="cuda", generator=gen).bfloat16()
            ref = a.double() @ b.double()
            rec = {"shape": s, "err": {}, "us": {}}
            for name, k in list(kernels.items()):
                c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
                try:
                    k(a, b, c)
                    torch.cuda.synchronize()
                    rec["err"][name] = float((c.double() - ref).norm() / ref.norm())
                except Exception as e:          # a variant that cannot run this shape
                    rec["err"][name] = repr(e)[:200]
            ok = [n for n, e in rec["err"].items() if isinstance(e, float) and e < 1e-2]
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            reps = {n: [] for n in ok}
            for r in range(5):
                for n in ok[r % len(ok):] + ok[:r % len(ok)]:
                    reps[n].append(triton.testing.do_bench(lambda: kernels[n](a, b, c), warmup=25,
                                                          rep=100) * 1e3)
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
