"""The aligned copies' speed: the one-program-per-tile copy (kernels/triton/pad.py) at a few
tile sizes, against the row-looping copy it replaced (pad_old.py, the file as it was) and
torch's strided copy_ into the same buffer. Each copy checked once to equal its source
(poisoned destination for torch's), then 5 interleaved replicates (do_bench medians, L2
flushed). GB/s counts the bytes read and written. One JSON line per case.

    python3 probe.py OUT.jsonl      (on a GPU, from the repository root)
"""
import importlib.util
import json
import statistics
import sys
from pathlib import Path

import torch
import triton

import swizzlekit.kernels.triton.pad as pad

spec = importlib.util.spec_from_file_location("pad_old", Path(__file__).with_name("pad_old.py"))
old = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)
TILES = [(8, 512), (16, 1024), (32, 1024), (16, 2048), (8, 2048)]


def cases():
    """(name, bytes moved, {variant: fn}, check) per case."""
    g = torch.Generator(device="cuda").manual_seed(0)
    bf = lambda r, c: torch.randn(r, c, device="cuda", dtype=torch.bfloat16, generator=g)
    for K, N in ((4000, 5000), (3000, 7000)):       # B's pitched copy (copies._pitched)
        b = bf(K, N)
        n2 = -(-N // 64) * 64
        yield (f"pitched B {K}x{N} bf16", 2 * K * N * 2 + 2 * K * (n2 - N),
               lambda m, b=b, n2=n2: m.pad_to(b, b.shape[0], n2)[:, :b.shape[1]], b)
    a, b = bf(5003, 1000), bf(1000, 2999)           # a ragged call's A and B (matmul)
    yield ("ragged A 5003x1000, B 1000x2999 bf16", 2 * 2 * (a.numel() + b.numel()),
           lambda m, a=a, b=b: m.pad_pair(a, (5003, 1008), b, (1008, 3008))[0][:, :1000], a)
    a8 = bf(777, 1234).to(torch.float8_e4m3fn)      # an fp8 call's A and Bᵀ (pad_k)
    b8 = bf(4095, 1234).to(torch.float8_e4m3fn)
    yield ("fp8 A 777x1234, Bt 4095x1234", 2 * (a8.numel() + b8.numel()),
           lambda m, a8=a8, b8=b8: m.pad_k(a8, b8)[0][:, :1234], a8)


with open(sys.argv[1], "a") as f:
    for name, moved, fn, src in cases():
        runs = {"row loop (before)": lambda fn=fn: fn(old)}
        for r, c in TILES:
            def tile(fn=fn, r=r, c=c):
                pad.BLOCK_R, pad.BLOCK_C = r, c
                return fn(pad)
            runs[f"tile {r}x{c}B"] = tile
        dst = torch.empty((src.shape[0], -(-src.shape[1] // 64) * 64), device="cuda",
                          dtype=src.dtype)
        dst.view(torch.uint8).fill_(255)                # poisoned before the check
        runs["torch copy_"] = lambda dst=dst, src=src: dst[:, :src.shape[1]].copy_(src)
        same = {k: bool(torch.equal(fn().view(torch.uint8), src.view(torch.uint8)))
                for k, fn in runs.items()}
        times = {k: [] for k in runs}
        names = list(runs)
        for turn in range(5):
            for k in names[turn % len(names):] + names[:turn % len(names)]:
                times[k].append(triton.testing.do_bench(runs[k], warmup=10, rep=40,
                                                        return_mode="median"))
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"case": name, "bytes": moved, "same": same, "ms": ms, "replicates": times,
               "gbps": {k: moved / (v * 1e-3) / 1e9 for k, v in ms.items()},
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(name + ("" if all(same.values()) else f"  NOT SAME {same}"))
        for k in names:
            print(f"  {k:20s} {ms[k] * 1000:8.1f} us  {row['gbps'][k]:7.0f} GB/s")
pad.BLOCK_R, pad.BLOCK_C = 16, 1024
