"""TF32 at 32 and 64 x 4096 x 4096: the library's call with K split 1 and 2 ways, its own
choice (``split_k=None``) and cuBLAS, in 7 interleaved, rotated replicates of ``do_bench``
medians (L2 flushed); one JSON line per M: the median of each and its least and greatest.
Run on a GPU: ``python3 k.py``."""
import torch, statistics, json
from triton.testing import do_bench
from swizzlekit.kernels import matmul
torch.backends.cuda.matmul.allow_tf32 = True
for m in (32, 64):
    a = torch.randn(m, 4096, device="cuda"); b = torch.randn(4096, 4096, device="cuda")
    runs = {"s1": lambda: matmul(a, b, precision="tf32", split_k=1),
            "s2": lambda: matmul(a, b, precision="tf32", split_k=2),
            "auto": lambda: matmul(a, b, precision="tf32"),
            "cublas": lambda: a @ b}
    for f in runs.values(): f()
    t = {k: [] for k in runs}
    for rep in range(7):
        keys = list(runs)[rep % 4:] + list(runs)[:rep % 4]
        for k in keys:
            t[k].append(do_bench(runs[k], warmup=5, rep=20, return_mode="median") * 1e3)
    rec = {"m": m, **{k: round(statistics.median(v), 2) for k, v in t.items()},
           "spread": {k: [round(min(v), 2), round(max(v), 2)] for k, v in t.items()}}
    print(json.dumps(rec), flush=True)
