"""Where the tail split's time goes: at 1163x4096x4096 and 700x8192x8192 (bf16, 128x256
tiles on 132 SMs: one whole wave, then 28 tiles split 4 ways or 60 split 2 ways), the
tail-split launch against its parts run alone: one wave of whole tiles (1024 or 512 rows:
128 tiles), tiles split as the tail splits them (139 or 256 rows: 32 or 64 tiles, split-K 4
or 2 in one launch: 128 programs), and the plain plan (two waves). Each
through ``matmul._launch`` (grouped(16), B as given) with its own cached plan, checked
against float64 into a NaN-poisoned C; 5 interleaved, rotated replicates (do_bench medians,
L2 flushed), µs.

    python3 docs/data/bench/tail_parts/probe.py OUT.jsonl      (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import poisoned, random_operands, relative_error

# (M, N, K, rows of the whole wave, rows of the split tiles, the split's ways)
CASES = [(1163, 4096, 4096, 1024, 139, 4), (700, 8192, 8192, 512, 256, 2)]


def launch(a, b, out, sig, split, tail):
    return mm._launch(a, b, b, b, out, sig, "grouped", 16, "tf32", False, True, False, False,
                      False, split, None, False, tail)


with open(sys.argv[1], "a") as f:
    for M, N, K, whole_rows, tail_rows, ways in CASES:
        parts = {"plain": (M, 1, False), "tail": (M, 1, True),
                 "whole wave": (whole_rows, 1, False), "split tiles": (tail_rows, ways, False)}
        runs, errs = {}, {}
        for name, (m, split, tail) in parts.items():
            a, b = random_operands(m, N, K, torch.bfloat16, "cuda")
            out = poisoned(m, N, torch.bfloat16, "cuda")
            sig = ("parts", m, N, K, name)
            runs[name] = (lambda a=a, b=b, out=out, sig=sig, split=split, tail=tail:
                          launch(a, b, out, sig, split, tail))
            runs[name]()
            errs[name] = relative_error(out, a, b)
        a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs["cublas"] = lambda: torch.matmul(a, b, out=c)
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {} if bad else interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"shape": [M, N, K], "parts": parts, "errors": errs, "bad": bad, "ms": ms,
               "replicates": times, "gpu": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + (f"  BAD {bad}" if bad else ""), flush=True)
