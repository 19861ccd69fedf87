"""The full suite's rows below 0.90x or the baseline (run 15): default mode, every config, persistent."""
import json, sys, time
import torch
from triton.testing import do_bench
from swizzlekit.kernels.triton import matmul as mm
mode = sys.argv[1]
ROWS = [("bf16", 1024, 1024, 1024), ("bf16", 128, 14336, 4096), ("bf16", 3000, 5000, 4000),
        ("bf16", 256, 14336, 4096), ("fp16", 128, 4096, 4096), ("fp16", 256, 4096, 4096),
        ("fp16", 3000, 5000, 4000), ("fp16", 8192, 14336, 4096), ("bf16", 2048, 2048, 2048)]
DT = {"bf16": torch.bfloat16, "fp16": torch.float16}
torch.manual_seed(1)
for p, M, N, K in ROWS:
    a = torch.randn(M, K, device="cuda").to(DT[p]); b = torch.randn(K, N, device="cuda").to(DT[p])
    ref = a.double() @ b.double()
    c = torch.full((M, N), float("nan"), device="cuda", dtype=DT[p])
    kw = dict(persistent=True) if mode == "persistent" else {}
    t0 = time.time()
    mm.matmul(a, b, out=c, **kw); torch.cuda.synchronize()
    err = float((c.double() - ref).norm() / ref.norm())
    setup = time.time() - t0
    ours, cub = [], []
    for _ in range(3):
        ours.append(do_bench(lambda: mm.matmul(a, b, out=c, **kw), warmup=25, rep=150, return_mode="median") * 1e3)
        cub.append(do_bench(lambda: torch.matmul(a, b, out=c), warmup=25, rep=150, return_mode="median") * 1e3)
    plan = repr(list(mm.PLANS._plans.values())[-1])
    print(json.dumps(dict(mode=mode, precision=p, shape=[M, N, K], ours_us=ours, cublas_us=cub,
                          rel_err=err, setup_s=round(setup, 1), plan=plan[:300])), flush=True)
