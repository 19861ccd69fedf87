"""Where `matmul` ran below the tutorial-style baseline, is it the configs it times?

The shapes whose single medians put `matmul` below `triton_baseline` in the H100's `full`
runs (fp16 and bf16 256x14336x4096, bf16 4096x4096x11008; docs/benchmarks.md), each checked
against float64, then timed in 5 interleaved, rotated replicates of do_bench medians (L2
flushed): `matmul` under this process's autotune mode, the tutorial-style baseline and
cuBLAS; the ratios are to cuBLAS within this process. Run it once per mode:

    SWIZZLEKIT_AUTOTUNE=model python3 docs/data/bench/baseline_gap/probe.py OUT.json
    SWIZZLEKIT_AUTOTUNE=full  python3 docs/data/bench/baseline_gap/probe.py OUT.json
    python3 docs/data/bench/baseline_gap/probe.py OUT.json 2048x2048x2048:float16 ...

(shapes and dtypes after OUT.json replace the cases above)

(``model``, the default, times the config model's best few; ``full`` every config that fits.)
"""
import json
import os
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.baseline import matmul_baseline

CASES = [((256, 14336, 4096), torch.float16), ((256, 14336, 4096), torch.bfloat16),
         ((4096, 4096, 11008), torch.bfloat16)]
REPLICATES = 5


def cases(args: list[str]) -> list:
    """``MxNxK:dtype`` arguments as (shape, torch dtype) cases, or :data:`CASES`."""
    out = []
    for arg in args:
        shape, dt = arg.split(":")
        out.append((tuple(int(x) for x in shape.split("x")), getattr(torch, dt)))
    return out or CASES


def main(out: str, chosen: list) -> None:
    torch.manual_seed(0)
    result = {"mode": os.environ.get("SWIZZLEKIT_AUTOTUNE", "model"),
              "device": torch.cuda.get_device_name(), "torch": torch.__version__,
              "triton": triton.__version__, "cases": []}
    for (M, N, K), dt in chosen:
        a = torch.randn(M, K, device="cuda", dtype=dt)
        b = torch.randn(K, N, device="cuda", dtype=dt)
        ref = a.double() @ b.double()
        variants = {"matmul": lambda: matmul(a, b), "baseline": lambda: matmul_baseline(a, b),
                    "cublas": lambda: a @ b}
        errs = {}
        for name, f in variants.items():
            c = f()
            torch.cuda.synchronize()
            errs[name] = float(((c.double() - ref).abs() / (ref.abs() + 1.0)).max())
            assert errs[name] < 2e-2, (name, errs[name])
        names, times = list(variants), {n: [] for n in variants}
        for rep in range(REPLICATES):
            for n in names[rep % 3:] + names[:rep % 3]:
                times[n].append(triton.testing.do_bench(variants[n], warmup=25, rep=100) * 1e3)
        med = {n: sorted(t)[len(t) // 2] for n, t in times.items()}
        case = {"shape": [M, N, K], "dtype": str(dt).split(".")[-1], "us_median": med,
                "us_replicates": times, "max_rel_err": errs,
                "x_cublas": {n: med["cublas"] / v for n, v in med.items()}}
        result["cases"].append(case)
        print(f"{result['mode']:6s} {M}x{N}x{K} {case['dtype']:8s} " + "  ".join(
            f"{n} {med[n]:7.1f} us ({med['cublas'] / med[n]:.3f})" for n in names), flush=True)
    json.dump(result, open(out, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1], cases(sys.argv[2:]))
