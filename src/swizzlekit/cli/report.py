"""``swizzlekit report``: the whole story for one GPU on one page (HTML, JSON, PNGs)."""

from __future__ import annotations

import argparse
from pathlib import Path

from swizzlekit.cli.common import emit, need_gpu, out_dir

__all__ = ["add", "run"]


def add(top) -> None:
    p = top.add_parser("report", help="one HTML page (plus PNGs and JSON) for a GPU")
    p.add_argument("--gpu", default="h200", help="GPU preset (see swizzlekit.gpus)")
    p.add_argument("--out", type=Path, default=Path("swizzlekit-report"))
    p.add_argument("--measure", action="store_true",
                   help="also measure on this machine's GPU (needs torch with CUDA, and ncu)")
    p.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from swizzlekit.gpus import gpu
    from swizzlekit.report import build

    gpu(args.gpu)                       # a bad preset is bad input (2) before any work
    out_dir(args.out)
    if args.measure:
        need_gpu("report --measure")
    data = build(args.gpu, args.out, measure=args.measure, progress=not args.json)
    picks = {"x".join(map(str, s["shape"])): s["recommended"] for s in data["cta"]["shapes"]}
    summary = {"html": str(args.out / "report.html"), "json": str(args.out / "report.json"),
               "pngs": len(list((args.out / "img").glob("*.png"))), "gpu": args.gpu,
               "measured": args.measure,
               "smem_conflict_free": sum(t["conflict_free"] for t in data["smem"]["gemm_tiles"]),
               "smem_tiles": len(data["smem"]["gemm_tiles"]), "recommended_orders": picks}
    emit(summary, args.json, f"wrote {summary['html']} ({summary['pngs']} PNGs inlined; every "
         f"number in {summary['json']})\n"
         f"shared memory: {summary['smem_conflict_free']}/{summary['smem_tiles']} GEMM tiles "
         f"conflict-free under the solver's layout\n"
         + "\n".join(f"CTA order for {k}: {v}" for k, v in picks.items()))
    return 0
