"""Why 317x4096x14336 keeps a slower config than its neighbour 384x4096x14336: every tile
config the TMA kernel fits, timed per shape, and the default autotune's pick under three
GPU states.

1. ``table``: ``lab.experiments.tiles.measure`` (full autotune, K unsplit, each config by
   ``gpu_time``) at 317 and 384 rows, alternating, two passes each.
2. ``pick``: the default mode (the config model's eight, ``split_k=1``), its autotune cache
   cleared before each call, the config it keeps (``matmul.describe``) and the timings it
   saw: ``idle`` (3 s asleep first), ``busy`` (1 s of GEMMs first) and ``paused`` (1 s asleep
   before each config's timing, as a cold compile leaves the GPU).

    python3 docs/data/bench/ragged_m/configs.py OUT.jsonl        (on a GPU)
"""
import functools
import json
import sys
import time

import torch
import triton

from swizzlekit.kernels.triton import matmul as mm
from swizzlekit.kernels.triton.timing import gpu_time
from swizzlekit.lab.experiments.tiles import label, measure
from swizzlekit.lab.harness import queued_work

SHAPES = [(317, 4096, 14336), (384, 4096, 14336)]
ENV = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
       "triton": triton.__version__}


def pick(M, N, K, state):
    t = mm._matmul_tma_kernel
    t.cache.clear()
    t.cache_results = False
    t.configs_timings = None
    t._do_bench = functools.partial(gpu_time, warmup=25, rep=100)
    if state == "paused":
        t._do_bench = lambda fn, **kw: (time.sleep(1), gpu_time(fn, warmup=25, rep=100, **kw))[1]
    mm.PLANS.clear()
    torch.manual_seed(1)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    if state == "idle":
        torch.cuda.synchronize()
        time.sleep(3)
    elif state == "busy":
        work = queued_work()
        end = time.time() + 1
        while time.time() < end:
            work()
            torch.cuda.synchronize()
    mm.matmul(a, b, out=c, split_k=1)
    torch.cuda.synchronize()
    seen = {label(cfg): round(float(ms[0]) * 1e3, 2)
            for cfg, ms in (t.configs_timings or {}).items()}
    return {"kind": "pick", "shape": [M, N, K], "state": state,
            "kept": mm.describe(a, b, out=c, split_k=1)["config"], "timed_us": seen, **ENV}


PRUNE = mm._matmul_tma_kernel.early_config_prune      # the config model's (configs.Prune)

with open(sys.argv[1], "a") as f:
    for turn in range(2):
        for M, N, K in (SHAPES if turn == 0 else SHAPES[::-1]):
            rows = measure(M, N, K, "bf16", "probe")
            row = {"kind": "table", "shape": [M, N, K], "turn": turn,
                   "us": {r["config"]: round(r["ms"] * 1e3, 2) for r in rows if r["kernel"] == "tma"},
                   "ok": all(r["ok"] for r in rows), **ENV}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(row["shape"], turn, sorted(row["us"].items(), key=lambda kv: kv[1])[:5], flush=True)
    t = mm._matmul_tma_kernel             # measure() set the tuner to time every config
    t.early_config_prune = PRUNE
    for state in ("idle", "busy", "paused", "idle", "busy", "paused"):
        for M, N, K in SHAPES:
            row = pick(M, N, K, state)
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(row["shape"], state, row["kept"], row["timed_us"], flush=True)
