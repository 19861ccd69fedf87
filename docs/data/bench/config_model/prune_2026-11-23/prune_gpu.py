"""The autotuner's early prune (tuning.Prune) on the GPU: what it timed equals explain's plan."""
import json
import torch
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton.choose import config_label
from swizzlekit.kernels.triton.explain import autotune_plan
SHAPES = [(53, 5041, 6232), (487, 1939, 1707), (1024, 1024, 1024), (4096, 4096, 4096), (64, 4096, 4096)]
torch.manual_seed(2)
for M, N, K in SHAPES:
    a = torch.randn(M, K, device="cuda").to(torch.bfloat16); b = torch.randn(K, N, device="cuda").to(torch.bfloat16)
    ref = a.double() @ b.double()
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
    for t in (mm._matmul_kernel, mm._matmul_tma_kernel):
        t.configs_timings = None
    mm.matmul(a, b, out=c, split_k=1); torch.cuda.synchronize()
    err = float((c.double() - ref).norm() / ref.norm())
    timed = {}
    for name, t in (("pointer", mm._matmul_kernel), ("tma", mm._matmul_tma_kernel)):
        if getattr(t, "configs_timings", None):
            timed[name] = sorted(config_label(cfg.kwargs, cfg.num_stages, cfg.num_warps) for cfg in t.configs_timings)
    plan = autotune_plan(M, N, K, "bf16")
    want = sorted(r.config for r in plan.configs if r.timed)
    print(json.dumps(dict(shape=[M, N, K], err=err, kernel=plan.kernel, both_narrow=plan.both_narrow,
                          timed=timed, plan_timed=want, same=timed.get(plan.kernel) == want)), flush=True)
