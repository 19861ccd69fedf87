"""lab tiles' autotuner timings against each config forced alone and timed through the plan path."""
import json, sys
import torch
from triton.testing import do_bench
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.experiments import tiles
from swizzlekit.lab.experiments.tiles import label
SH = [(1024, 1024, 1024, "bf16"), (2048, 2048, 2048, "bf16"), (1500, 1000, 777, "bf16")]
for M, N, K, p in SH:
    rows = tiles.measure(M, N, K, p, "probe")
    lab = {(r["kernel"], r["config"]): r["ms"] for r in rows}
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda").to(torch.bfloat16); b = torch.randn(K, N, device="cuda").to(torch.bfloat16)
    ref = a.double() @ b.double()
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
    for kname, kern in (("pointer", mm._matmul_kernel), ("tma", mm._matmul_tma_kernel)):
        configs = list(kern.configs)
        try:
            for cfg in configs:
                lab_ms = lab.get((kname, label(cfg)))
                if lab_ms is None:
                    continue
                kern.configs = [cfg]; kern.cache.clear(); mm.PLANS.clear()
                c.fill_(float("nan"))
                mm.matmul(a, b, out=c, order="grouped", group=8, split_k=1, tma=(kname == "tma")); torch.cuda.synchronize()
                err = float((c.double() - ref).norm() / ref.norm())
                t = [do_bench(lambda: mm.matmul(a, b, out=c, order="grouped", group=8, split_k=1, tma=(kname == "tma")),
                              warmup=25, rep=100, return_mode="median") * 1e3 for _ in range(2)]
                print(json.dumps(dict(shape=[M, N, K], kernel=kname, config=label(cfg), lab_us=lab_ms * 1e3,
                                      alone_us=t, err=err)), flush=True)
        finally:
            kern.configs = configs
