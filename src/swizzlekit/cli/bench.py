"""``swizzlekit bench`` (kernels against cuBLAS) and ``swizzlekit reproduce`` (a seed's table)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from swizzlekit.cli.common import dims, emit, need_gpu, out_dir, parse_order
from swizzlekit.lab.cluster import CLUSTER_HELP, check_cluster, open_cluster

__all__ = ["add", "run_bench", "run_reproduce"]


def add(top) -> None:
    p = top.add_parser("bench", help="GEMM kernels against cuBLAS on this GPU")
    from swizzlekit.lab.bench import PRECISIONS, SUITES

    p.add_argument("--suite", action="append", default=None,
                   help=", ".join(SUITES) + " (repeat)")
    p.add_argument("--mnk", action="append", default=None, type=dims(3), metavar="MxNxK",
                   help="a shape of your own, e.g. 3000x5000x4000 (repeat; results under suite "
                   "'mnk'; without --suite, only these run)")
    p.add_argument("--precision", action="append", default=None,
                   help=", ".join(PRECISIONS) + " (repeat; fp8: e4m3 with scales, against "
                   "torch._scaled_mm)")
    p.add_argument("--kernel", action="append", default=None, help="a name from KERNELS")
    p.add_argument("--order", action="append", default=None, metavar="NAME[:K=V,...]",
                   help="orders for the kernels that take one (default auto: the L2 model's "
                   "pick for each shape; grouped:group=8 is the order of Triton's tutorial)")
    p.add_argument("--out", type=Path, default=Path("bench-out"))
    p.add_argument("--warm", action="store_true", help="do not flush L2 between repetitions")
    p.add_argument("--ncu", action="store_true",
                   help="also profile one call of each run with Nsight Compute (ncu.csv)")
    p.add_argument("--cluster", default="none", metavar="none|local|tcp://HOST:PORT",
                   help=CLUSTER_HELP)
    p.add_argument("--json", action="store_true")
    p = top.add_parser("reproduce", help="a seed's own table, measured on this GPU")
    p.add_argument("seed", choices=("seed001", "seed002"))
    p.add_argument("--out", type=Path, default=Path("reproduce-out"))
    p.add_argument("--cluster", default="none", metavar="none|local|tcp://HOST:PORT",
                   help=CLUSTER_HELP)
    p.add_argument("--json", action="store_true")


def run_bench(args: argparse.Namespace) -> int:
    from swizzlekit.lab.bench import bench, chart, profile_runs, runs
    from swizzlekit.lab.records import to_dicts
    from swizzlekit.report.summary import kernel_summary

    orders = [parse_order(text) for text in args.order or ["auto"]]
    suites = args.suite or ([] if args.mnk else ["square"])
    run_list = runs(suites, args.precision or ["bf16"], args.kernel or ["triton"], orders,
                    shapes=args.mnk or ())
    out_dir(args.out)
    if check_cluster(args.cluster) == "none":
        need_gpu("bench")
    start = time.perf_counter()
    with open_cluster(args.cluster) as client:
        rows = bench(run_list, args.out, warm=args.warm, progress=not args.json, client=client)
        counters = ({r.key(): r for r in profile_runs(run_list, args.out, client=client,
                                                      progress=not args.json)}
                    if args.ncu else {})
    wall = time.perf_counter() - start
    charts = [str(chart(rows, s, p, args.out / f"chart_{s}_{p}.png"))
              for s in sorted({r.suite for r in rows}) for p in sorted({r.precision for r in rows})
              if any(r.suite == s and r.precision == p for r in rows)]
    lines = []
    for r in rows:
        c = counters.get((r.suite, r.M, r.N, r.K, r.precision, r.kernel, r.order, r.params))
        lines.append(f"{r.suite:12s} {r.M}x{r.N}x{r.K:<6} {r.precision:5s} {r.kernel:18s} "
                     f"{r.order:10s} {r.tflops:8.1f} TFLOP/s {r.vs_cublas:6.3f}x  "
                     f"{'ok' if r.ok else 'WRONG'}"
                     + (f"  L2 {c.l2_hit_rate_pct}%  DRAM {c.dram_read_bytes / 1e6:.0f} MB"
                        f"  bank conflicts {c.smem_bank_conflicts_ld}" if c else ""))
    gpus = sorted({r.gpu_uuid for r in rows if r.gpu_uuid})
    summary = kernel_summary(to_dicts(rows))
    for s in summary:
        lines.append(f"{s['precision']}: geomean {s['geomean']:.3f}x over {s['shapes']} shapes, "
                     f"{s['below']} below 0.90x, worst {s['worst']:.3f} ({s['worst_shape']})"
                     + ("" if s["below_baseline"] is None else
                        f", {s['below_baseline']} below the tutorial baseline")
                     + ("" if not s["as_given"] else
                        f"; where _scaled_mm takes the shape: {s['as_given']['geomean']:.3f}x "
                        f"over {s['as_given']['shapes']}, {s['as_given']['below']} below 0.90x"))
    emit({"rows": to_dicts(rows), "ncu": to_dicts(counters.values()), "charts": charts,
          "wall_s": round(wall, 1), "gpus": gpus, "summary": summary},
         args.json, "\n".join(lines) + f"\n(L2 {'not ' if args.warm else ''}flushed before "
         f"each repetition; {wall:.1f} s on {len(gpus) or 1} GPU(s); results in {args.out})")
    return 0


def run_reproduce(args: argparse.Namespace) -> int:
    from swizzlekit.lab.experiments import reproduce

    out = out_dir(args.out / args.seed)
    if check_cluster(args.cluster) == "none":
        need_gpu("reproduce")
    with open_cluster(args.cluster) as client:
        text = (reproduce.seed002(out, progress=not args.json, client=client)
                if args.seed == "seed002" else reproduce.seed001(out, client=client))
    emit({"seed": args.seed, "table": text, "out": str(out)}, args.json, text)
    return 0
