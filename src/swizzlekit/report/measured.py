"""The report's measured sections (``swizzlekit report --measure``): run on this GPU now.

* ceilings: cuBLAS per precision and the copy bandwidth (``measure.ceilings``);
* kernels: a short benchmark, L2 flushed, every result checked against float64: cuBLAS, the
  Triton GEMM under the order the L2 model recommends and under grouped(8), and the SGEMM
  ladder's main rungs, at 4096^3 and 8192^3;
* L2: Nsight Compute's hit rate for the order-table GEMM under row, grouped(8) and the
  recommended order at two shapes, beside the model's prediction;
* order times: the order-table GEMM at every shape of the CTA section under row, grouped(8),
  the model's fastest and its recommendation, timed in 5 interleaved replicates
  (:func:`swizzlekit.lab.experiments.order_times.time_problem`), each checked against float64;
* seed 001: its two kernels under ncu at its sizes; seed 002: the ladder at its sizes.

Each step is a ``(title, function)`` in :data:`STEPS`, called with the output folder and the
report's GPU preset (the models' picks are that preset's); the report shows a progress bar over
them. Everything needs torch with a CUDA GPU, and ncu for the L2 steps.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

__all__ = ["STEPS", "KERNEL_RUNS", "L2_SHAPES", "order_times"]

#: (precision, kernels) timed at 4096^3 and 8192^3; "triton" runs under two orders.
KERNEL_RUNS = (("bf16", ("cublas", "triton")),
               ("tf32", ("cublas", "triton", "cuda_wmma_tf32")),
               ("fp32", ("cublas", "cuda_sgemmopt", "cuda_bank_free", "cuda_warptile")))
L2_SHAPES = ((8192, 8192, 8192), (16384, 16384, 2048))


@functools.lru_cache(maxsize=None)
def _orders(shape: tuple[int, int, int], gpu: str = "h200") -> tuple[tuple[str, dict], ...]:
    """Row, grouped(8), the time model's fastest order and its recommendation for ``shape``
    (ranked once per shape: the kernels, L2 and order-times steps all ask)."""
    from swizzlekit.cta.rank import rank, verdict

    from swizzlekit.report.collect import KERNEL, canonical

    ranked = rank(*shape, gpu=gpu, ctas_per_sm=KERNEL["ctas_per_sm"])
    v = verdict(ranked, gpu)
    chosen = [("row", {}), ("grouped", {"group": 8})]
    for name, params in ((ranked[0]["order"], ranked[0]["params"]),
                         (v["pick_order"], v["pick_params"])):
        if canonical(name, params) not in {canonical(*c) for c in chosen}:
            chosen.append((name, params))
    return tuple(chosen)


def ceilings(out: Path, gpu: str = "h200") -> dict:
    from swizzlekit.lab.experiments.ceilings import measure

    return measure()


def kernels(out: Path, gpu: str = "h200") -> dict:
    from swizzlekit.lab.bench import Run, bench
    from swizzlekit.lab.records import to_dicts
    from swizzlekit.plots import benchmark_chart

    plan = []
    for n in (4096, 8192):
        shape = (n, n, n)
        for prec, names in KERNEL_RUNS:
            for name in names:
                orders = _orders(shape, gpu)[1:] if name == "triton" else [("", {})]
                for order, params in orders:
                    plan.append(Run("report", shape, prec, name, order,
                                    tuple(sorted(params.items()))))
    rows = bench(plan, out / "bench", progress=False)
    precisions = [prec for prec, _ in KERNEL_RUNS]
    pngs = [benchmark_chart(rows, "report", p, out / "img" / f"measured_{p}.png").name
            for p in precisions]
    captions = [f"4096³ and 8192³, {p}: TFLOP/s of each kernel" for p in precisions]
    return {"source": "measured", "rows": to_dicts(rows), "pngs": pngs, "captions": captions}


def l2(out: Path, gpu: str = "h200") -> dict:
    from swizzlekit.cta import order
    from swizzlekit.cta.l2 import simulate
    from swizzlekit.compare import H200_SETTINGS
    from swizzlekit.lab.bench import Run, profile_runs

    plan = [Run("report-l2", s, "fp16", "table_gemm", o, tuple(sorted(p.items())))
            for s in L2_SHAPES for o, p in _orders(s, gpu)]
    rows = []
    for r in profile_runs(plan, out / "ncu"):
        m, n, k = r.M, r.N, r.K
        params = json.loads(r.params)
        pred = simulate(m, n, k, order(r.order, -(-m // 128), -(-n // 128), **params),
                        **{**H200_SETTINGS, "gpu": gpu})
        rows.append({"run": "measured now", "shape": f"{m}x{n}x{k}", "order": r.order,
                     "params": params,
                     "measured_hit": r.l2_hit_rate_pct, "model_hit": pred.l2_hit_rate,
                     "measured_dram": r.dram_read_bytes, "model_dram": pred.dram_read_bytes})
    return {"source": "measured now (ncu --clock-control none)", "rows": rows}


def order_times(out: Path, gpu: str = "h200") -> dict:
    """The CTA section's shapes, each under :func:`_orders`, timed in replicates."""
    from swizzlekit.lab.experiments.l2_sweep import SweepRun, _by_problem
    from swizzlekit.lab.experiments.order_times import REPLICATES, time_problem
    from swizzlekit.report.collect import KERNEL, SHAPES

    config = "x".join(map(str, KERNEL["tile"]))
    runs = [SweepRun(*shape, config, "fp16", name, json.dumps(params, sort_keys=True), False,
                     KERNEL["ctas_per_sm"]) for shape in SHAPES for name, params in _orders(shape, gpu)]
    rows = []
    for group, (a, b, _) in _by_problem(runs):
        for r in time_problem(group, a, b, split="report"):
            rows.append({"M": r["M"], "N": r["N"], "K": r["K"], "order": r["order"],
                         "params": json.loads(r["params"]), "ms": r["ms"], "ms_min": r["ms_min"],
                         "ms_max": r["ms_max"], "rel_err": r["rel_err"],
                         "times": [float(t) for t in r["replicates"].split(";")]})
    return {"source": f"measured now: the order-table GEMM ({config}, fp16), {REPLICATES} "
                      f"interleaved replicates per order, each a do_bench median with the L2 "
                      f"flushed", "rows": rows}


def seed001(out: Path, gpu: str = "h200") -> dict:
    from swizzlekit.lab.experiments.reproduce import seed001 as run

    return {"table": run(out / "seed001")}


def seed002(out: Path, gpu: str = "h200") -> dict:
    from swizzlekit.lab.bench import bench, runs

    from swizzlekit.lab.records import to_dicts

    rows = bench(runs(["seed002"], ["fp32"], ["cuda_naive", "cuda_sgemmopt", "cuda_warptile"]),
                 out / "seed002", progress=False)
    return {"rows": to_dicts(rows)}


STEPS = (("cuBLAS ceilings and copy bandwidth", ceilings),
         ("short benchmark: cuBLAS, Triton, the SGEMM ladder", kernels),
         ("L2 hit rate under ncu, beside the model", l2),
         ("CTA orders timed in replicates", order_times),
         ("seed 001's kernels under ncu", seed001),
         ("seed 002's sizes", seed002))
