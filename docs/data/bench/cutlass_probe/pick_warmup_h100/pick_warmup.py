"""Dev probe: why the 16-bit first-call pick keeps CUTLASS where the Triton plan runs faster
after. Per shape: the first call (pick printed), then repeated picks under three timing modes,
then the benchmark's 5 interleaved do_bench means."""
import json, statistics, sys
import torch
from triton.testing import do_bench
from swizzlekit.kernels.cuda.cutlass import TILES16, cutlass_matmul
from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.lab.verify import poisoned, random_operands
from swizzlekit.turns import turn_order

SHAPES = sys.argv[2:] or ["5893x10504x7352", "5897x9208x3080", "5491x5488x4880"]
MODES = {"pick(w2,r10,med)": (2, 10, "median"), "w25,r10,med": (25, 10, "median"),
         "w25,r100,med": (25, 100, "median"), "w25,r100,mean": (25, 100, "mean"),
         "w2,r10,mean": (2, 10, "mean")}
opts = mm._options("auto", "tf32", False, None, None, {})
with open(sys.argv[1], "w") as log:
    for s in SHAPES:
        M, N, K = map(int, s.split("x"))
        a, b = random_operands(M, N, K, torch.bfloat16, "cuda")
        c = poisoned(M, N, torch.bfloat16, "cuda")
        mm.matmul(a, b, out=c)
        p = mm.fingerprint((a, b, c), opts)
        kept = mm.CLUSTERED.get(p)
        route = mm.ROUTES.follow(p, mm.PLANS)
        runs = {"triton": lambda: mm._repeat(route, a, b, c, p, "tf32")}
        for t in TILES16:
            runs[t] = lambda t=t: cutlass_matmul(a, b, out=c, tiles=t)
        # how many kernels the Triton plan launches per call
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            runs["triton"](); torch.cuda.synchronize()
        kern = [e.name[:60] for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        names = list(runs)
        res = {}
        for mode, (w, r, rm) in MODES.items():
            picks = []
            for rep in range(3):
                times = {n: [] for n in names}
                for turn in range(5):
                    for n in turn_order(names, turn):
                        times[n].append(do_bench(runs[n], warmup=w, rep=r, return_mode=rm) * 1e3)
                med = {n: statistics.median(v) for n, v in times.items()}
                picks.append({"pick": min(med, key=med.get), **{n: round(v, 1) for n, v in med.items()}})
            res[mode] = picks
            print(s, mode, [(q["pick"], *[q[n] for n in names]) for q in picks], flush=True)
        rec = {"shape": s, "kept": kept, "route": str(route)[:400], "kernels": kern, "modes": res}
        log.write(json.dumps(rec) + "\n"); log.flush()
        print(s, "kept", kept, "kernels", kern, flush=True)
