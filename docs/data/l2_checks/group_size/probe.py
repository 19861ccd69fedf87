"""grouped(8) against grouped(16) where the report's H100 timings part them (8192x28672x8192,
128x128x64 fp16 tiles, 2 CTAs an SM): each order checked against float64 and timed in 5
interleaved replicates (`order_times.time_problem`), then profiled once under ncu
(`--clock-control none`) for DRAM bytes, L2 sectors and fabric traffic, beside the L2 and time
models' predictions on this card's preset. Run from the repository root on a GPU:

    python3 docs/data/l2_checks/group_size/probe.py OUT_DIR     # writes OUT_DIR/probe.json
    python3 docs/data/l2_checks/group_size/probe.py --table FILE    # the table again, no GPU
"""
import json
import sys
from pathlib import Path

SHAPES = ((8192, 28672, 8192), (8192, 8192, 8192))
ORDERS = (("row", {}), ("grouped", {"group": 4}), ("grouped", {"group": 8}),
          ("grouped", {"group": 16}), ("grouped", {"group": 32}),
          ("grouped", {"group": 8, "along": "n"}), ("hilbert", {}))
CONFIG, DTYPE = "128x128x64", "fp16"


def runs():
    from swizzlekit.lab.experiments.l2_sweep import SweepRun

    return [SweepRun(*shape, CONFIG, DTYPE, name, json.dumps(params, sort_keys=True), False, 2)
            for shape in SHAPES for name, params in ORDERS]


def launch_all():
    import torch

    from swizzlekit.lab.experiments.l2_sweep import _by_problem, _launcher

    for group, (a, b, _) in _by_problem(runs()):
        for r in group:
            fn, _ = _launcher(r, 0, a, b)
            fn()
            torch.cuda.synchronize()


def model(row: dict, gpu: str) -> dict:
    from swizzlekit.cta.l2 import simulate
    from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, OUT_BYTES, row_bytes, sweep_order

    bm, bn, bk = map(int, CONFIG.split("x"))
    o = sweep_order(row["order"], -(-row["M"] // bm), -(-row["N"] // bn), json.loads(row["params"]))
    p = simulate(row["M"], row["N"], row["K"], o, tile=(bm, bn, bk), elem_bytes=ELEM_BYTES[DTYPE],
                 out_bytes=OUT_BYTES[DTYPE], ctas_per_sm=row["ctas_per_sm"],
                 row_bytes=row_bytes(row["N"], row["K"], DTYPE), gpu=gpu)
    return {"model_ms": p.time_s * 1e3, "model_dram_read": p.dram_read_bytes,
            "model_hit": p.l2_hit_rate}


def table(rows) -> str:
    out = [f"{'shape':16s} {'order':24s} {'ms':>7s} {'x best':>7s} {'model x':>8s} "
           f"{'DRAM MB':>8s} {'model MB':>9s} {'hit %':>6s} {'model %':>8s} {'tex rd M':>9s} "
           f"{'fabric M':>9s}"]
    for shape in sorted({(r["M"], r["N"], r["K"]) for r in rows}):
        group = [r for r in rows if (r["M"], r["N"], r["K"]) == shape]
        best, mbest = min(r["ms"] for r in group), min(r["model_ms"] for r in group)
        for r in group:
            out.append(f"{'x'.join(map(str, shape)):16s} {r['order'] + ' ' + r['params']:24s} "
                       f"{r['ms']:7.3f} {r['ms'] / best:7.3f} {r['model_ms'] / mbest:8.3f} "
                       f"{r['dram_read'] / 1e6:8.0f} {r['model_dram_read'] / 1e6:9.0f} "
                       f"{r['hit']:6.1f} {r['model_hit']:8.1f} {r['tex_read'] / 1e6:9.1f} "
                       f"{r['fabric'] / 1e6:9.1f}")
    return "\n".join(out)


def main(argv):
    if argv[:1] == ["launch"]:
        return launch_all()
    if argv[:1] == ["--table"]:
        print(table(json.loads(Path(argv[1]).read_text())["rows"]))
        return
    import torch

    from swizzlekit.lab import ncu
    from swizzlekit.lab.experiments.l2_sweep import METRICS, _by_problem
    from swizzlekit.lab.experiments.order_times import time_problem
    from swizzlekit.lab.harness import environment

    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    gpu = "h100-sxm" if "H100" in torch.cuda.get_device_name() else "h200"
    rows = []
    for group, (a, b, _) in _by_problem(runs()):
        rows += time_problem(group, a, b, 5, split="probe")
        print(f"timed {group[0].shape}", flush=True)
    prof = ncu.profile([sys.executable, __file__, "launch"], METRICS,
                       kernel_regex="order_table_gemm", extra_args=("--print-units", "base"))
    if len(prof) != len(rows):
        raise SystemExit(f"ncu profiled {len(prof)} launches for {len(rows)} runs")
    for r, p in zip(rows, prof):
        r.update(dram_read=int(p["dram__bytes_read.sum"]), hit=p["lts__t_sector_hit_rate.pct"],
                 tex_read=int(p["lts__t_sectors_srcunit_tex_op_read.sum"]),
                 fabric=int(p["lts__t_sectors_srcunit_ltcfabric.sum"]),
                 ncu_ms=p["gpu__time_duration.sum"] / 1e6, **model(r, gpu))
    (out / "probe.json").write_text(json.dumps({"env": environment(), "gpu": gpu, "rows": rows},
                                               indent=1, default=str) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
