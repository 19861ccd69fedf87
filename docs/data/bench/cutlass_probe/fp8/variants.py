"""Time builds of the library's cutlass_fp8.cu with other tiles, clusters or CUTLASS's
stream-K scheduler (each a .so in SO_DIR, built with -D flags, see README.md) against
``torch._scaled_mm`` (fast accumulation) and ``scaled_matmul``.

    python3 variants.py SO_DIR OUT.jsonl MxNxK [MxNxK ...]
    python3 variants.py --two-schedules SO_DIR OUT.jsonl MxNxK [MxNxK ...]

The first form loads ``variants.cu``'s builds (one schedule each); ``--two-schedules`` loads
builds of the library's own source (``src/swizzlekit/kernels/cuda/cutlass_fp8.cu``, e.g.
``-DSWIZZLEKIT_TILE_N=192``), whose entry point takes the schedule, and times each build in
whole tiles (``NAME``) and in stream-K (``NAME_sk``).

Every kernel's output is first checked against float64 on fresh scaled e4m3 operands
(:func:`swizzlekit.lab.verify.scaled_operands`), poisoned with NaN first; then 5
interleaved, rotated replicates of do_bench means (L2 flushed) per kernel; µs.
"""
import ctypes
import glob
import json
import os
import sys

import torch
import triton

from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands


def load(so_dir, two_schedules=False):
    """{name: run} for each .so in ``so_dir`` (two a build with ``two_schedules``)."""
    out = {}
    schedule = [ctypes.c_int] if two_schedules else []
    for path in sorted(glob.glob(os.path.join(so_dir, "*.so"))):
        lib = ctypes.CDLL(path)
        fn, ws = lib.swizzlekit_cutlass_fp8_gemm, lib.swizzlekit_cutlass_fp8_workspace
        fn.restype, ws.restype = ctypes.c_int, ctypes.c_size_t
        fn.argtypes = ([ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_long] * 3
                       + schedule + [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                                     ctypes.POINTER(ctypes.c_int)])
        ws.argtypes = [ctypes.c_int] * (3 + len(schedule))
        name = os.path.basename(path)[:-3]
        for stream_k in ((0, 1) if two_schedules else (None,)):
            out[name + ("_sk" if stream_k else "")] = runner(fn, ws, stream_k)
    return out


def runner(fn, ws_fn, stream_k=None):
    """Run a build (``stream_k`` None: variants.cu's entry point, which takes no schedule)."""
    buffers = {}
    extra = () if stream_k is None else (stream_k,)

    def run(a, b, sa, sb, c):
        M, K = a.shape
        N = b.shape[1]
        ws = buffers.get((M, N, K))
        if ws is None:                          # one workspace a shape, as the library keeps
            ws = buffers[M, N, K] = torch.empty(max(ws_fn(M, N, K, *extra), 1),
                                                dtype=torch.uint8, device="cuda")
        bt, err = b.T, ctypes.c_int(0)
        rc = fn(a.data_ptr(), bt.data_ptr(), c.data_ptr(), sa.data_ptr(), sb.data_ptr(), M, N,
                K, a.stride(0), bt.stride(0), c.stride(0), *extra, ws.data_ptr(), ws.numel(),
                torch.cuda.current_stream().cuda_stream, ctypes.byref(err))
        if rc:
            raise RuntimeError(f"returned {rc}, CUDA error {err.value}")
        return c
    return run


def main():
    args = sys.argv[1:]
    two = args[0] == "--two-schedules"
    so_dir, out_path, shapes = args[two], args[two + 1], args[two + 2:]
    kernels = {
        "cublas": lambda a, b, sa, sb, c: torch._scaled_mm(
            a, b, sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True, out=c),
        "scaled_matmul": lambda a, b, sa, sb, c: scaled_matmul(a, b, sa, sb, out=c)}
    kernels.update(load(so_dir, two))
    with open(out_path, "w") as log:
        for s in shapes:
            M, N, K = map(int, s.split("x"))
            a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
            rec = {"shape": s, "err": {}, "us": {}}
            for name, k in kernels.items():
                c = poisoned(M, N, torch.bfloat16, "cuda")
                try:
                    k(a, b, sa, sb, c)
                    torch.cuda.synchronize()
                    rec["err"][name] = relative_error(c, ref=ref)
                except Exception as e:          # a variant that cannot run this shape
                    rec["err"][name] = repr(e)[:200]
            ok = [n for n, e in rec["err"].items() if isinstance(e, float) and e < 1e-2]
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            reps = {n: [] for n in ok}
            for r in range(5):
                for n in ok[r % len(ok):] + ok[:r % len(ok)]:
                    reps[n].append(triton.testing.do_bench(
                        lambda: kernels[n](a, b, sa, sb, c), warmup=25, rep=100) * 1e3)
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
