"""The tail split in rounds forced against the plain plan, each through its own cached plan
(``matmul._launch``, bf16, grouped(16), B as given): the kernel's effect without the first
call's pick. Shapes of ``probe.py`` whose rows TMA reads at full speed; checked against
float64 into a NaN-poisoned C, then 5 interleaved, rotated replicates (do_bench medians, L2
flushed), µs.

    python3 docs/data/bench/tail_rounds/forced.py OUT.jsonl      (on a GPU; ran at f251fa8)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import poisoned, random_operands, relative_error

SHAPES = [(3837, 4096, 8192), (7907, 3072, 8192), (5616, 2048, 2048), (1315, 14336, 14336),
          (1163, 4096, 4096)]    # the last: a last wave of 36, one round (the split as shipped)

with open(sys.argv[1], "a") as f:
    for M, N, K in SHAPES:
        a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
        outs, runs, errs = {}, {}, {}
        for name, tail in (("plain", False), ("tail", True)):
            sig = ("forced", M, N, K, name)
            outs[name] = poisoned(M, N, torch.bfloat16, "cuda")
            runs[name] = (lambda tail=tail, sig=sig, out=outs[name]: mm._launch(
                a, b, b, b, out, sig, "grouped", 16, "tf32", False, True, False, False, False,
                1, None, False, tail))
            runs[name]()
            errs[name] = relative_error(outs[name], a, b)
        runs["cublas"] = lambda: torch.matmul(a, b, out=outs["plain"])
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"shape": [M, N, K], "errors": errs, "bad": bad, "ms": ms, "replicates": times,
               "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + (f"  tail/plain {ms['plain'] / ms['tail']:.3f}x" if ms else f" BAD {bad}"),
              flush=True)
