"""Why 317x4096x14336 keeps a slower config than its neighbour 384x4096x14336: every tile
config the TMA kernel fits, timed per shape by ``lab.experiments.tiles.measure`` (full
autotune, K unsplit, each config by ``gpu_time``) at 317 and 384 rows, alternating, two
passes each. One JSON line a shape and pass.

    python3 docs/data/bench/ragged_m/configs.py OUT.jsonl        (on a GPU)
"""
import json
import sys

import torch
import triton

from swizzlekit.lab.experiments.tiles import measure

SHAPES = [(317, 4096, 14336), (384, 4096, 14336)]
ENV = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
       "triton": triton.__version__}


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
