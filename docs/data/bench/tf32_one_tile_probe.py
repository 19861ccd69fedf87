import sys, time, torch
import os; sys.path.insert(0, os.environ.get("SRC", "src"))
from triton.testing import do_bench
from swizzlekit.kernels.triton import matmul as mm
for M, N, K in [(1024, 1024, 1024), (128, 4096, 4096), (16, 8192, 8192)]:
    a = torch.randn(M, K, device="cuda"); b = torch.randn(K, N, device="cuda"); c = torch.empty(M, N, device="cuda")
    mm.matmul(a, b, out=c); torch.cuda.synchronize()
    cfg = mm._matmul_tma_kernel.best_config
    t0 = time.perf_counter()
    for _ in range(200): mm.matmul(a, b, out=c)
    host = (time.perf_counter() - t0) / 200 * 1e6
    torch.cuda.synchronize()
    ms = do_bench(lambda: mm.matmul(a, b, out=c), return_mode="median")
    plan = mm.PLANS.get(None)
    print(f"{M}x{N}x{K} cfg={cfg} plans={len(mm.PLANS)} host/call={host:.1f}us do_bench={ms*1e3:.1f}us", flush=True)
    # the GPU time alone: the compiled kernel's own time from a CUDA graph of 20 calls
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        mm.matmul(a, b, out=c)
        with torch.cuda.graph(g):
            for _ in range(20): mm.matmul(a, b, out=c)
    torch.cuda.synchronize()
    ms_g = do_bench(lambda: g.replay(), return_mode="median") / 20
    print(f"   graph per call {ms_g*1e3:.1f}us", flush=True)
