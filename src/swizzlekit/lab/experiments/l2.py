"""Measure L2 hit rate, DRAM traffic and time of GEMMs under CTA orders, on the GPU.

The table behind the L2 model's validation (``src/swizzlekit/data/l2_h200.csv``):

* the order-table Triton GEMM (fp16, 128x128x64 tiles) on 8 shapes, among them seed 001's,
  under 7 orders, each launch profiled once by Nsight Compute (``lts__t_sector_hit_rate.pct``,
  ``dram__bytes_read.sum``, ``dram__bytes_write.sum``; ncu flushes the caches before each
  profiled launch) and timed separately with ``triton.testing.do_bench`` (median, L2 flushed
  before every repetition);
* seed 001's own experiment: its ``matmul_smem<32>`` and ``matmul_swizzle<32,4>`` (fp32) at its
  four sizes, profiled and timed the same way.

``swizzlekit lab l2 --out DIR`` on a GPU machine.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import sys
from pathlib import Path

from swizzlekit.errors import ToolError
from swizzlekit.lab.records import L2Row

__all__ = ["SHAPES", "ORDER_SET", "SEED001_SIZES", "configs", "run"]

SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (1024, 1024, 128),
          (8192, 8192, 8192), (16384, 16384, 2048), (16384, 2048, 8192), (2048, 16384, 8192)]
ORDER_SET = [("row", {}), ("col", {}), ("grouped", {"group": 8}), ("strip", {"width": 8}),
             ("morton", {}), ("hilbert", {}), ("snake", {})]
SEED001_SIZES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (1024, 1024, 128)]
METRICS = ("lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "gpu__time_duration.sum")
TILE = 128


def configs() -> list[dict]:
    """Every measured launch, in launch order."""
    out = [{"kernel": "table_gemm", "M": m, "N": n, "K": k, "order": name, "params": params}
           for (m, n, k) in SHAPES for name, params in ORDER_SET]
    for m, n, k in SEED001_SIZES:
        for kern in ("matmul_smem<32>", "matmul_swizzle<32,4>"):
            out.append({"kernel": kern, "M": m, "N": n, "K": k, "order": None, "params": {}})
    return out


#: Seed 001's kernels as rungs of the CUDA registry (compiled by NVRTC like every kernel).
SEED001_RUNGS = {"matmul_smem<32>": "cuda_seed001_smem", "matmul_swizzle<32,4>": "cuda_seed001_swizzle"}


def _run(cfg: dict, time_it: bool) -> dict:
    """Launch one config once (under ncu), or time it and check it (without)."""
    import torch

    from swizzlekit.cta import order
    from swizzlekit.kernels.triton.table_gemm import order_table, table_gemm
    from swizzlekit.lab.verify import check_table_gemm as check

    m, n, k = cfg["M"], cfg["N"], cfg["K"]
    if cfg["kernel"] == "table_gemm":
        o = order(cfg["order"], -(-m // TILE), -(-n // TILE), **cfg["params"])
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        table = order_table(o, "cuda")
        fn = lambda: table_gemm(a, b, table, out=c)  # noqa: E731
        err = check(m, n, k, o) if time_it else None
    else:
        from swizzlekit.kernels.cuda.ladder import run as run_rung
        from swizzlekit.lab.verify import poisoned, random_operands, relative_error

        a, b = random_operands(m, n, k, torch.float32, "cuda")
        c = poisoned(m, n, torch.float32, "cuda")
        name = SEED001_RUNGS[cfg["kernel"]]
        fn = lambda: run_rung(name, a, b, out=c)  # noqa: E731
        err = None
        if time_it:
            fn()
            torch.cuda.synchronize()
            err = relative_error(c, a, b)
    if not time_it:
        fn()
        torch.cuda.synchronize()
        return {}
    from triton.testing import do_bench

    ms = do_bench(fn, warmup=50, rep=300, return_mode="median")
    return {"ms": ms, "rel_err": err, "tflops": 2 * m * n * k / (ms * 1e-3) / 1e12}


def _known_metrics(names: list[str]) -> list[str]:
    """The names this ncu knows (base names before .sum/.pct), printing the dropped ones."""
    if not names:
        return []
    import subprocess

    from swizzlekit.lab import ncu

    listing = subprocess.run([ncu.find_ncu(), "--query-metrics"], capture_output=True,
                             text=True).stdout
    known = {line.split()[0] for line in listing.splitlines() if line.strip()}
    keep = [n for n in names if n.rsplit(".", 1)[0] in known]
    for n in names:
        if n not in keep:
            print(f"note: ncu has no metric {n}; dropped", file=sys.stderr)
    return keep


def run(out: Path, extra_metrics: tuple[str, ...] = ()) -> Path:
    """Time every config, then profile every config under ncu; writes ``l2.csv`` (typed
    :class:`~swizzlekit.lab.records.L2Row` columns, then ``extra_metrics``) and ``l2.json``."""
    import subprocess

    from swizzlekit.lab import ncu
    from swizzlekit.lab.harness import environment

    cfgs = configs()
    out.mkdir(parents=True, exist_ok=True)
    extra = _known_metrics(list(extra_metrics))
    me = [sys.executable, "-m", "swizzlekit.lab.experiments.l2", str(out)]
    subprocess.run([*me, "time"], check=True)
    prof = ncu.profile([*me, "launch"], (*METRICS, *extra),
                       kernel_regex="order_table_gemm|matmul_", keep_log=out / "ncu_raw.csv",
                       extra_args=("--print-units", "base"))
    timings = json.loads((out / "timings.json").read_text())
    if len(prof) != len(cfgs):
        raise ToolError(f"ncu profiled {len(prof)} launches for {len(cfgs)} configs")
    with open(out / "l2.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([*(fld.name for fld in dataclasses.fields(L2Row)), *extra])
        for cfg, p, t in zip(cfgs, prof, timings):
            row = L2Row(cfg["kernel"], cfg["M"], cfg["N"], cfg["K"], cfg["order"] or "",
                        json.dumps(cfg["params"]), p["lts__t_sector_hit_rate.pct"],
                        int(p["dram__bytes_read.sum"]), int(p["dram__bytes_write.sum"]),
                        p["gpu__time_duration.sum"] / 1e6, t["ms"], t["tflops"],
                        t["rel_err"] if t["rel_err"] is not None else float("nan"))
            w.writerow([*dataclasses.astuple(row), *(p[m] for m in extra)])
    meta = {"env": environment(), "command": "swizzlekit lab l2 --out DIR",
            "ncu_metrics": list(METRICS)}
    (out / "l2.json").write_text(json.dumps(meta, indent=2) + "\n")
    return out / "l2.csv"


if __name__ == "__main__":      # the children: "time" (check and time), "launch" (under ncu)
    _out, _mode = Path(sys.argv[1]), sys.argv[2]
    if _mode == "launch":
        for _cfg in configs():
            _run(_cfg, time_it=False)
    else:
        (_out / "timings.json").write_text(
            json.dumps([dict(c, **_run(c, time_it=True)) for c in configs()], indent=1))
