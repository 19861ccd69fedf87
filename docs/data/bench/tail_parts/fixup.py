"""The cost of split K's sum, apart from its K loop: 32 tiles of 128x256 (139 x 4096, bf16),
K = 4096 split 1, 2 and 4 ways, against K = 1024 and 2048 unsplit (the K loop of one share
of 4 and of 2, with no partials); 1163x4096x4096's tail split and plain plan beside them.
``matmul._launch`` (grouped(16), B as given) with its own cached plan each, checked against
float64 into a NaN-poisoned C; 5 interleaved, rotated replicates (do_bench medians, L2
flushed), µs; the config each ran (``describe``'s, through ``PLANS``).

    python3 docs/data/bench/tail_parts/fixup.py OUT.jsonl      (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import poisoned, random_operands, relative_error

# name: (M, N, K, split, tail)
VARIANTS = {"K4096 S1": (139, 4096, 4096, 1, False), "K4096 S2": (139, 4096, 4096, 2, False),
            "K4096 S4": (139, 4096, 4096, 4, False), "K2048 S1": (139, 4096, 2048, 1, False),
            "K1024 S1": (139, 4096, 1024, 1, False), "1163 tail": (1163, 4096, 4096, 1, True),
            "1163 plain": (1163, 4096, 4096, 1, False)}

runs, errs, configs = {}, {}, {}
for name, (m, n, k, split, tail) in VARIANTS.items():
    a, b = random_operands(m, n, k, torch.bfloat16, "cuda")
    out = poisoned(m, n, torch.bfloat16, "cuda")
    sig = ("fixup", name)
    runs[name] = (lambda a=a, b=b, out=out, sig=sig, split=split, tail=tail: mm._launch(
        a, b, b, b, out, sig, "grouped", 16, "tf32", False, True, False, False, False, split,
        None, False, tail))
    runs[name]()
    errs[name] = relative_error(out, a, b)
    key = (*sig, split, *(("tail",) if tail else ()))
    plan = mm.PLANS.get(key)
    configs[name] = f"{plan.config} {plan.info}" if plan is not None else None
bad = {k: e for k, e in errs.items() if not e < 1e-2}
times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
ms = {k: statistics.median(t) for k, t in times.items()}
with open(sys.argv[1], "a") as f:
    f.write(json.dumps({"variants": VARIANTS, "errors": errs, "bad": bad, "ms": ms,
                        "replicates": times, "configs": configs,
                        "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                        "triton": triton.__version__}) + "\n")
for k, v in ms.items():
    print(f"{k}: {v * 1e3:.1f} us   {configs[k]}")
print(f"BAD {bad}" if bad else "all within 1e-2 of float64")
