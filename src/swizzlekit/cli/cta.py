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
    p.add_argument("--tile", type=dims(3), default=None,
                   help="BMxBNxBK (default 128x128x64; not with --kernel, which sets it)")
    p.add_argument("--gpu", default="h200", help="GPU preset (see swizzlekit.gpus)")
    p.add_argument("--order", required=True, help="an order name, or 'all' to rank them")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="order parameter, e.g. group=8 (not with --order all, which sweeps them)")
    p.add_argument("--elem-bytes", type=int, default=None,
                   help="bytes per element: 1, 2, 4, 8 (default 2; not with --kernel)")
    p.add_argument("--concurrent", type=positive, default=None,
                   help="CTAs per wave (default: the model's fitted wave)")
    p.add_argument("--ctas-per-sm", type=positive, default=None,
                   help="the kernel's residency (default 1, or the --kernel's own)")
    p.add_argument("--persistent", action="store_true",
                   help="a persistent grid: SMs x residency programs walk the order")
    p.add_argument("--programs", type=positive, default=None,
                   help="with --persistent: the grid's program count (default: SMs x "
                        "residency; more run in batches)")
    p.add_argument("--dispatch", default="coin", metavar="coin|measured",
                   help="how CTAs land on the L2's two halves: the fitted model's coin (default), "
                        "or the GPU's measured SM order and sides (docs/cta.md)")
    p.add_argument("--row-bytes", type=dims(2), default=None, metavar="AxB",
                   help="bytes from one row of A and of B to the next (default: contiguous; "
                        "rows off a 32-byte sector cost extra lookups, docs/cta.md)")
    p.add_argument("--kernel", default=None,
                   help="take tile, element size and residency from a measured kernel, e.g. "
                        "table_gemm:128x128x64:fp16")
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
    tile = (128, 128, 64) if args.tile is None else args.tile
    elem_bytes = 2 if args.elem_bytes is None else args.elem_bytes
    ctas_per_sm, out_bytes, row_bytes = args.ctas_per_sm or 1, None, args.row_bytes
    if args.kernel is not None:
        given = [flag for flag, v in (("--tile", args.tile), ("--elem-bytes", args.elem_bytes))
                 if v is not None]
        if given:
            raise SwizzleKitError(f"--kernel sets the tile and element size from the measured "
                                  f"kernel; drop {' and '.join(given)}, or drop --kernel")
        from swizzlekit.errors import check_choice
        from swizzlekit.gpus import residency
        from swizzlekit.lab.experiments.l2_sweep import measured_kernels

        kernels = measured_kernels()
        check_choice("kernel", args.kernel, kernels)
        kern = kernels[args.kernel]
        tile, elem_bytes, out_bytes = kern["tile"], kern["elem_bytes"], kern["out_bytes"]
        if row_bytes is None:           # as the kernel takes its operands (fp8: B K-major)
            from swizzlekit.lab.experiments.l2_sweep import row_bytes as sweep_rows

            row_bytes = sweep_rows(args.mnk[1], args.mnk[2], kern["dtype"])
        grid = kern["persistent"] if args.persistent else kern
        ctas_per_sm = args.ctas_per_sm or residency(g, kern["threads"], grid["regs_per_thread"],
                                                    grid["smem_bytes"])
        if ctas_per_sm < 1:
            raise SwizzleKitError(f"{args.kernel} does not fit on one SM of {g.name}")
    (m, n, k), (bm, bn, _) = args.mnk, tile
    check_problem(m, n, k, None, tile, elem_bytes)
    concurrent = args.concurrent
    common = dict(tile=tile, elem_bytes=elem_bytes, gpu=args.gpu, ctas_per_sm=ctas_per_sm,
                  persistent=args.persistent, concurrent=concurrent, dispatch=args.dispatch,
                  out_bytes=out_bytes, programs=args.programs, row_bytes=row_bytes)
    if args.order == "all":
        if args.param:
            raise SwizzleKitError("--param names one order's parameters; --order all sweeps "
                                  "each order's parameters itself (drop --param, or name one "
                                  "order)")
        from swizzlekit.cta.rank import verdict

        ranked = rank(m, n, k, **common)
        best = ranked[0]
        v = verdict(ranked, args.gpu)
        out = {"gpu": args.gpu, "dispatch": args.dispatch, "recommended": best,
               "ranking": ranked, "verdict": v, "ctas_per_sm": ctas_per_sm, "tile": list(tile),
               "elem_bytes": elem_bytes, "kernel": args.kernel,
               "l2_hit_rate": best["l2_hit_rate"], "dram_read_bytes": best["dram_read_bytes"]}
        lines = [f"{'order':26s} {'time us':>9s} {'vs row':>7s} {'L2 hit %':>9s} "
                 f"{'DRAM read MB':>13s}"]
        lines += [f"{label(r['order'], r['params']):26s} {r['time_s'] * 1e6:9.1f} "
                  f"{r['time_vs_row']:7.3f} {r['l2_hit_rate']:9.1f} "
                  f"{r['dram_read_bytes'] / 1e6:13.0f}" for r in ranked]
        held = v["heldout"].get("heldout", {})
        lines.append(f"model's pick: {v['text']} (time model fitted on {v['fitted_on']}; "
                     f"held out, its pick runs within 2% of the fastest order on "
                     f"{held.get('pick_within_2pct', 0):.0%} of problems; docs/cta.md)")
        emit(out, args.json, "\n".join(lines))
        return 0
    params = order_params(args.param)
    tm, tn = -(-m // bm), -(-n // bn)
    pred = simulate(m, n, k, order(args.order, tm, tn, **params), **common)
    out = {"order": args.order, "params": params, "gpu": args.gpu, "ctas_per_sm": ctas_per_sm,
           "dispatch": args.dispatch, "tile": list(tile), "elem_bytes": elem_bytes,
           "kernel": args.kernel, **pred.to_dict()}
    emit(out, args.json, f"{label(args.order, params)} on {g.name}: predicted time "
         f"{pred.time_s * 1e6:.1f} us, L2 hit rate "
         f"{pred.l2_hit_rate:.1f}%, DRAM read {pred.dram_read_bytes / 1e6:.0f} MB "
         f"({pred.waves} waves; {'x'.join(map(str, tile))} tiles of {elem_bytes}-byte elements; "
         f"{ctas_per_sm} CTA{'' if ctas_per_sm == 1 else 's'} per SM)")
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
