"""The config model against full autotuning on the shapes where the bench differed (H200)."""
import os, sys, time, json, torch
from triton.testing import do_bench
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.verify import random_operands, poisoned, relative_error
mode = os.environ.get("SWIZZLEKIT_AUTOTUNE", "model")
out = []
for m, n, k in [(777, 4095, 1234), (1999, 4097, 3001), (1024, 1024, 1024), (5003, 2999, 1000)]:
    a, b = random_operands(m, n, k, torch.bfloat16, "cuda")
    c = poisoned(m, n, torch.bfloat16, "cuda")
    torch.cuda.synchronize(); t0 = time.perf_counter()
    matmul(a, b, out=c); torch.cuda.synchronize()
    first = time.perf_counter() - t0
    err = relative_error(c, a, b)
    us = [round(do_bench(lambda: matmul(a, b, out=c), warmup=20, rep=100) * 1e3, 1) for _ in range(3)]
    cfg = {name: str(getattr(t, "best_config", None)) for name, t in
           (("pointer", mm._matmul_kernel), ("tma", mm._matmul_tma_kernel))}
    out.append({"mode": mode, "shape": [m, n, k], "first_call_s": round(first, 2), "us": us,
                "err": err, "plans": len(mm.PLANS), "configs": cfg})
    print(out[-1], flush=True)
json.dump(out, open(os.path.join(os.environ["OUT"], f"ragged_{mode}.json"), "w"), indent=1)
