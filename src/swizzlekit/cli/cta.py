"""``swizzlekit cta``: simulate (the L2 model, one order or all ranked) and show (a picture)."""

from __future__ import annotations

import argparse
from pathlib import Path

from swizzlekit.cli.common import Parser, dims, emit, order_params, out_file, positive
from swizzlekit.errors import SwizzleKitError

__all__ = ["add", "run", "MAX_SHOW_TILES"]

#: The largest grid ``cta show`` draws (a 256 x 256 heatmap is still readable as colour).
MAX_SHOW_TILES = 256 * 256


def add(top) -> None:
    cta = top.add_parser("cta", help="CTA orders: simulate, show")
    sub = cta.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    p = sub.add_parser("simulate", help="predict L2 hit rate and DRAM traffic of a GEMM order")
    p.add_argument("--mnk", type=dims(3), required=True, help="MxNxK, e.g. 8192x8192x8192")
    p.add_argument("--tile", type=dims(3), default=(128, 128, 64), help="BMxBNxBK (128x128x64)")
    p.add_argument("--gpu", default="h200", help="GPU preset (see swizzlekit.gpus)")
    p.add_argument("--order", required=True, help="an order name, or 'all' to rank them")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="order parameter, e.g. group=8 (not with --order all, which sweeps them)")
    p.add_argument("--elem-bytes", type=int, default=2, help="bytes per element: 1, 2, 4, 8")
    p.add_argument("--concurrent", type=positive, default=None,
                   help="CTAs per wave (default: the GPU's SM count)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("show", help="PNG of an order over the tile grid, and its first waves")
    p.add_argument("--grid", type=dims(2), required=True, help="tiles_m x tiles_n, e.g. 16x16")
    p.add_argument("--order", required=True, help="an order name (see swizzlekit.cta.ORDERS)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="order parameter, e.g. group=8; repeat for more")
    p.add_argument("--concurrent", type=positive, default=None,
                   help="CTAs per wave (default: the H200's SM count)")
    p.add_argument("--out", type=Path, required=True, help="PNG file to write")
    p.add_argument("--json", action="store_true")


def _simulate(args: argparse.Namespace) -> int:
    from swizzlekit.cta import order
    from swizzlekit.cta.l2 import check_problem, simulate
    from swizzlekit.cta.rank import label, rank
    from swizzlekit.gpus import gpu

    g = gpu(args.gpu)
    (m, n, k), (bm, bn, _) = args.mnk, args.tile
    check_problem(m, n, k, None, args.tile, args.elem_bytes)
    concurrent = args.concurrent or g.sms
    if args.order == "all":
        if args.param:
            raise SwizzleKitError("--param names one order's parameters; --order all sweeps "
                                  "each order's parameters itself (drop --param, or name one "
                                  "order)")
        ranked = rank(m, n, k, gpu=args.gpu, tile=args.tile, elem_bytes=args.elem_bytes,
                      concurrent=concurrent)
        best = ranked[0]
        out = {"gpu": args.gpu, "recommended": best, "ranking": ranked,
               "l2_hit_rate": best["l2_hit_rate"], "dram_read_bytes": best["dram_read_bytes"]}
        lines = [f"{'order':22s} {'L2 hit %':>9s} {'DRAM read MB':>13s}"]
        lines += [f"{label(r['order'], r['params']):22s} "
                  f"{r['l2_hit_rate']:9.1f} {r['dram_read_bytes'] / 1e6:13.0f}" for r in ranked]
        lines.append(f"model's pick: {label(best['order'], best['params'])} (the model's hit rate "
                     f"errs by about 5 points on runs it was not fitted on: docs/cta.md)")
        emit(out, args.json, "\n".join(lines))
        return 0
    params = order_params(args.param)
    tm, tn = -(-m // bm), -(-n // bn)
    pred = simulate(m, n, k, order(args.order, tm, tn, **params), tile=args.tile,
                    elem_bytes=args.elem_bytes, l2_bytes=g.l2_bytes, concurrent=concurrent,
                    partitions=g.l2_partitions)
    out = {"order": args.order, "params": params, "gpu": args.gpu, **pred.to_dict()}
    emit(out, args.json, f"{label(args.order, params)} on {g.name}: L2 hit rate "
         f"{pred.l2_hit_rate:.1f}%, DRAM read {pred.dram_read_bytes / 1e6:.0f} MB "
         f"({pred.waves} waves of {concurrent} CTAs)")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.cmd == "simulate":
        return _simulate(args)
    from swizzlekit.cta import order, wave_tile_loads
    from swizzlekit.gpus import gpu
    from swizzlekit.plots import save_order_map

    tm, tn = args.grid
    if tm * tn > MAX_SHOW_TILES:
        raise SwizzleKitError(f"a {tm}x{tn} grid has {tm * tn} tiles; cta show draws at most "
                              f"{MAX_SHOW_TILES} (256x256)")
    out_file(args.out, (".png",))
    concurrent = args.concurrent or gpu("h200").sms
    params = order_params(args.param)
    o = order(args.order, tm, tn, **params)
    label = args.order + "".join(f" {k}={v}" for k, v in params.items())
    path = save_order_map(args.out, o, tm, tn, concurrent,
                          f"order {label} over {tm}x{tn} tiles, waves of {concurrent} CTAs")
    loads = wave_tile_loads(o, 1, concurrent)
    emit({"png": str(path), "order": o.tolist(), "tile_loads_per_k_step": loads}, args.json,
         f"wrote {path}; A+B tiles per K step, per wave: {loads}")
    return 0
