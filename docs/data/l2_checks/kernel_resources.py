"""The compiled resources of every kernel launch in the committed L2 tables, on a GPU.

The sweeps of 2026-11-22/23 recorded each run's registers, shared memory and residency from
``table_gemm.resources(config, dtype, persistent)``, which compiled the kernel for one aligned
tile and, for persistent grids, one tile and one program. Triton compiles one kernel per
specialization of its integer arguments, and the runs' own kernels differ: ragged shapes load
by ``ld.global`` and spill, and persistent grids keep their tile loop. This script launches
every (shape, tile config, element type, grid) of ``l2_sweep_h200.csv`` and
``l2_fresh_h200.csv`` once, on real operands and with the table's own program count, and
records the compiled kernel's registers, spills and shared memory, and the residency
(``swizzlekit.gpus.residency``). It checks that ``resources(..., shape=, programs=)``, which
compiles a small stand-in problem, reports the same.

    python3 docs/data/l2_checks/kernel_resources.py OUT.json
"""

import csv
import json
import sys

import torch

from swizzlekit.cta import order
from swizzlekit.data import FOLDER
from swizzlekit.gpus import residency
from swizzlekit.kernels.triton import table_gemm as tg
from swizzlekit.lab.cluster import provenance

TABLES = ("l2_sweep_h200.csv", "l2_fresh_h200.csv")


def launches():
    seen = {}
    for name in TABLES:
        for r in csv.DictReader(open(FOLDER / name)):
            key = (int(r["M"]), int(r["N"]), int(r["K"]), r["config"], r["dtype"],
                   r["persistent"] == "True", int(r["programs"]))
            seen.setdefault(key, {"regs": int(r["regs_per_thread"]), "smem": int(r["smem_bytes"]),
                                  "ctas_per_sm": int(r["ctas_per_sm"])})
    return seen


def launched(M, N, K, config, dtype, persistent, programs):
    """The kernel the sweep's launch of this problem compiles (a row order)."""
    dt = getattr(torch, tg.DTYPES[dtype][1])
    a = torch.randn(M, K, device="cuda").to(dt)
    b = (torch.randn(N, K, device="cuda").to(dt).T if dtype == "fp8"
         else torch.randn(K, N, device="cuda").to(dt))
    cfg = tg.tile_config(config)
    o = order("row", -(-M // cfg.bm), -(-N // cfg.bn))
    kernel = tg._run(a, b, o, None, config, persistent, programs if persistent else None)[1]
    torch.cuda.synchronize()
    return kernel


def main(path):
    rows = []
    for key, recorded in launches().items():
        M, N, K, config, dtype, persistent, programs = key
        k = launched(*key)
        threads = tg.tile_config(config).warps * 32
        regs, smem = int(k.n_regs), int(k.metadata.shared)
        res = tg.resources(config, tg.DTYPES[dtype][1], persistent, shape=(M, N, K),
                           programs=programs if persistent else None)
        row = {"M": M, "N": N, "K": K, "config": config, "dtype": dtype,
               "persistent": persistent, "programs": programs, "threads": threads,
               "regs_per_thread": regs, "spill_bytes": int(k.n_spills), "smem_bytes": smem,
               "ctas_per_sm": residency("h200", threads, regs, smem), "recorded": recorded,
               "stand_in_equal": (res["regs_per_thread"], res["smem_bytes"],
                                  res["spill_bytes"]) == (regs, smem, int(k.n_spills))}
        print(json.dumps(row), flush=True)
        rows.append(row)
        del k
        torch.cuda.empty_cache()
    json.dump({"command": "python3 docs/data/l2_checks/kernel_resources.py OUT.json",
               "env": provenance(), "launches": rows}, open(path, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
