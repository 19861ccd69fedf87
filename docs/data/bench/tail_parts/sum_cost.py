"""What the tail split's sum costs: the 16-bit TMA kernel's tail launch (``matmul._launch(...,
tail=True)``, bf16, grouped(16), B as given, the config the model ranks first) with
``split_k._tail_sum`` as built (``built``), replaced by one that stores the partial and counts
but adds nothing (``store``: the first share writes its partial as C), or by one that does
neither (``none``: only the first share writes C). ``store`` and ``none`` give wrong sums by
design; ``built`` is checked against float64. The replacement happens before the kernel
compiles, so each variant runs in its own process (argv[2]); 5 interleaved, rotated replicates
of the tail launch and cuBLAS (do_bench medians, L2 flushed), µs.

    python3 docs/data/bench/tail_parts/sum_cost.py OUT.jsonl built|store|none    (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton
import triton.language as tl

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton import tma_kernel
from swizzlekit.lab.harness import interleaved_ms
from swizzlekit.lab.verify import poisoned, random_operands, relative_error


@triton.jit
def _store_only(acc, ws_ptr, counts_ptr, tail_tile, ways, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    area: tl.constexpr = BLOCK_M * BLOCK_N
    offs = tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    tl.store(ws_ptr + tl.program_id(0).to(tl.int64) * area + offs, acc)
    tl.atomic_add(counts_ptr + tail_tile, 0)
    return acc, (tl.program_id(0) % ways) == 0


@triton.jit
def _no_sum(acc, ws_ptr, counts_ptr, tail_tile, ways, BLOCK_M: tl.constexpr,
            BLOCK_N: tl.constexpr):
    return acc, (tl.program_id(0) % ways) == 0


variant = sys.argv[2]
if variant != "built":
    tma_kernel._tail_sum = {"store": _store_only, "none": _no_sum}[variant]
with open(sys.argv[1], "a") as f:
    for M, N, K in [(1163, 4096, 4096), (700, 8192, 8192)]:
        a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
        out = poisoned(M, N, torch.bfloat16, "cuda")
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"tail": lambda: mm._launch(a, b, b, b, out, ("sum", variant, M, N, K), "grouped",
                                           16, "tf32", False, True, False, False, False, 1,
                                           None, False, True),
                "cublas": lambda: torch.matmul(a, b, out=c)}
        runs["tail"]()
        err = relative_error(out, a, b)
        times = interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
        ms = {k: statistics.median(t) for k, t in times.items()}
        f.write(json.dumps({"variant": variant, "shape": [M, N, K], "error": err, "ms": ms,
                            "replicates": times, "gpu": torch.cuda.get_device_name(),
                            "torch": torch.__version__, "triton": triton.__version__}) + "\n")
        print(f"{variant} {M}x{N}x{K}: tail {ms['tail'] * 1e3:.1f} us  cuBLAS "
              f"{ms['cublas'] * 1e3:.1f} us  error {err:.2e}", flush=True)
