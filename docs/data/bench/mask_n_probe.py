"""A/B (H200, 2026-11-23, output mask_n_probe.json): B's columns wrapped (% N) against masked, on shapes whose N is no multiple of 16."""
import json, os, sys, torch, triton
from triton.testing import do_bench
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import matmul as mm, pointer_kernel
from swizzlekit.lab.verify import random_operands, poisoned, relative_error
shapes = [(17, 20217, 4261), (275, 2325, 1789), (22, 2143, 1229), (50, 3559, 1456),
          (24, 2067, 11259), (1000, 3001, 2048), (512, 4095, 1024), (128, 14337, 4096)]
rows = []
for dt, prec, bound in ((torch.bfloat16, "tf32", 1e-2), (torch.float32, "tf32", 1e-3)):
    for m, n, k in shapes:
        a, b = random_operands(m, n, k, dt, "cuda")
        torch.backends.cuda.matmul.allow_tf32 = True
        cub = do_bench(lambda: torch.matmul(a, b), warmup=10, rep=60)
        res = {"shape": [m, n, k], "dtype": str(dt), "cublas_us": round(cub * 1e3, 1)}
        for flag in (False, True):
            pointer_kernel.MASK_UNALIGNED_N = flag
            for t in (mm._matmul_kernel, mm._matmul_tma_kernel):
                t.cache.clear(); t.cache_results = False
            mm.PLANS.clear()
            c = poisoned(m, n, dt, "cuda")
            matmul(a, b, out=c, precision=prec)
            err = relative_error(c, a, b)
            us = do_bench(lambda: matmul(a, b, out=c, precision=prec), warmup=10, rep=60) * 1e3
            res[f"mask{int(flag)}_us"] = round(us, 1); res[f"mask{int(flag)}_err"] = float(f"{err:.2e}")
            res[f"mask{int(flag)}_ok"] = err == err and err < bound
        rows.append(res); print(res, flush=True)
json.dump(rows, open(os.path.join(os.environ["OUT"], "mask_n_probe.json"), "w"), indent=1)
