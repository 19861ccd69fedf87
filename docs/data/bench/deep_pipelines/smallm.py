"""What cuBLAS runs at small M (kernel names, grids under ncu), and what the library picks."""
import json, os, sys, time
import torch
SHAPES = [(64, 4096, 4096), (128, 4096, 4096), (256, 4096, 4096), (512, 4096, 4096),
          (256, 8192, 8192), (1024, 1024, 1024)]
mode = sys.argv[1]
torch.manual_seed(0)
def ops(M, N, K):
    return (torch.randn(M, K, device="cuda").to(torch.bfloat16),
            torch.randn(K, N, device="cuda").to(torch.bfloat16))
if mode == "cublas":
    for M, N, K in SHAPES:
        a, b = ops(M, N, K)
        torch.matmul(a, b); torch.cuda.synchronize()
    sys.exit(0)
from triton.testing import do_bench
from swizzlekit.kernels.triton import matmul as mm
out = []
splits = [None] if mode in ("full", "deep") else [None, 4]
for M, N, K in SHAPES:
    a, b = ops(M, N, K)
    ref = (a.double() @ b.double())
    for s in splits:
        t0 = time.time()
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
        mm.matmul(a, b, out=c, split_k=s); torch.cuda.synchronize()
        err = float((c.double() - ref).norm() / ref.norm())
        ours = do_bench(lambda: mm.matmul(a, b, out=c, split_k=s), warmup=25, rep=200, return_mode="median")
        cub = do_bench(lambda: torch.matmul(a, b, out=c), warmup=25, rep=200, return_mode="median")
        plans = [repr(p) for k, p in list(mm.PLANS._plans.items())[-1:]] + [repr(p) for k, p in list(mm.SPLITS._plans.items())[-1:]]
        row = dict(mode=mode, shape=[M, N, K], split=s, ours_us=ours * 1e3, cublas_us=cub * 1e3,
                   rel_err=err, setup_s=round(time.time() - t0, 1), plans=plans)
        print(json.dumps(row), flush=True)
