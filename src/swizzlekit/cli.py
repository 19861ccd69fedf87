"""The ``swizzlekit`` command.

Exit codes: 0 success; 2 bad input (one line on stderr, never a traceback); 1 a failure of
the machine or a tool (a missing GPU or ncu where one is needed).

``--json`` prints one JSON object on stdout instead of the readable form.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from swizzlekit.errors import SwizzleKitError

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise SwizzleKitError(f"{self.prog}: {message}")


def _smem_common(p: argparse.ArgumentParser, layout: bool = False) -> None:
    p.add_argument("--shape", type=_dims(2), required=True, help="tile rows x cols, e.g. 8x32")
    p.add_argument("--elem-bytes", type=int, required=True, help="element size: 1,2,4,8,16")
    p.add_argument("--access", action="append", required=True, metavar="SPEC",
                   help="row, col or block:RxC[:vec=V][:stride=SRxSC]; repeat for more")
    if layout:
        p.add_argument("--layout", default=None, metavar="SPEC",
                       help="row-major, pad:P, swizzle:B,M,S, xor:B,M,S, linear:..., "
                            "xor-cols:BITS[,..], triton:VEC,PP,MP, tma:MODE")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="swizzlekit", description="Data locality for GPU matrix multiplication.")
    top = ap.add_subparsers(dest="area", required=True, parser_class=_Parser)
    smem = top.add_parser("smem", help="shared-memory swizzles: solve, check, show, cases")
    sub = smem.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    _smem_common(sub.add_parser("solve", help="find the layout that avoids bank conflicts"))
    p = sub.add_parser("check", help="wavefronts of each access under a layout")
    _smem_common(p, layout=True)
    p = sub.add_parser("show", help="PNG bank maps, before and after")
    _smem_common(p, layout=True)
    p.add_argument("--out", type=Path, required=True, help="PNG file to write")
    p = sub.add_parser("cases", help="solve and check every built-in case (seeds 004, 002)")
    p.add_argument("--out", type=Path, default=None, help="folder for bank-map PNGs")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("wavefronts", help="the bank model for one warp instruction")
    p.add_argument("addresses", nargs="+", help="byte address per lane, '-' for inactive")
    p.add_argument("--width", type=int, default=4, help="access width: 4, 8 or 16 bytes")
    p.add_argument("--op", default="ld", help="ld, st, ldmatrix or stmatrix")
    p.add_argument("--json", action="store_true")
    cta = top.add_parser("cta", help="CTA orders: simulate, show")
    csub = cta.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    p = csub.add_parser("simulate", help="predict L2 hit rate and DRAM traffic of a GEMM order")
    p.add_argument("--mnk", type=_dims(3), required=True, help="MxNxK, e.g. 8192x8192x8192")
    p.add_argument("--tile", type=_dims(3), default=(128, 128, 64), help="BMxBNxBK (128x128x64)")
    p.add_argument("--gpu", default="h200", help="GPU preset (see swizzlekit.gpus)")
    p.add_argument("--order", required=True, help="an order name, or 'all' to rank them")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--elem-bytes", type=int, default=2, help="bytes per element (2)")
    p.add_argument("--concurrent", type=int, default=None,
                   help="CTAs per wave (default: the GPU's SM count)")
    p.add_argument("--json", action="store_true")
    p = csub.add_parser("show", help="PNG of an order over the tile grid, and its first waves")
    p.add_argument("--grid", type=_dims(2), required=True, help="tiles_m x tiles_n, e.g. 16x16")
    p.add_argument("--order", required=True, help="an order name (see swizzlekit.cta.ORDERS)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="order parameter, e.g. group=8; repeat for more")
    p.add_argument("--concurrent", type=int, default=132, help="CTAs per wave (default 132)")
    p.add_argument("--out", type=Path, required=True, help="PNG file to write")
    p.add_argument("--json", action="store_true")
    kern = top.add_parser("kernels", help="GEMM kernels: list, build, ptx, sass")
    ksub = kern.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    p = ksub.add_parser("list", help="every registered kernel")
    p.add_argument("--json", action="store_true")
    p = ksub.add_parser("build", help="compile every CUDA kernel with NVRTC (no GPU needed)")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--json", action="store_true")
    for verb in ("ptx", "sass"):
        p = ksub.add_parser(verb, help=f"the {verb.upper()} of one CUDA kernel")
        p.add_argument("name")
        p.add_argument("--arch", default="sm_90")
        p.add_argument("--json", action="store_true")
    rep = top.add_parser("reproduce", help="a seed's own table, measured on this GPU")
    p = rep.add_argument("seed", choices=("seed001", "seed002"))
    rep.add_argument("--out", type=Path, default=Path("reproduce-out"))
    rep.add_argument("--json", action="store_true")
    p = top.add_parser("report", help="one HTML page (plus PNGs and JSON) for a GPU")
    p.add_argument("--gpu", default="h200", help="GPU preset (see swizzlekit.gpus)")
    p.add_argument("--out", type=Path, default=Path("swizzlekit-report"))
    p.add_argument("--measure", action="store_true",
                   help="also measure on this machine's GPU (needs torch with CUDA, and ncu)")
    p.add_argument("--json", action="store_true")
    p = top.add_parser("bench", help="GEMM kernels against cuBLAS on this GPU")
    p.add_argument("--suite", action="append", default=None,
                   help="square, large-square, seed001, seed002, llm, tall-wide (repeat)")
    p.add_argument("--precision", action="append", default=None, help="fp16, bf16, tf32, fp32")
    p.add_argument("--kernel", action="append", default=None, help="a name from KERNELS")
    p.add_argument("--order", action="append", default=None, metavar="NAME[:K=V,...]",
                   help="orders for the kernels that take one (default grouped:group=8)")
    p.add_argument("--out", type=Path, default=Path("bench-out"))
    p.add_argument("--warm", action="store_true", help="do not flush L2 between repetitions")
    p.add_argument("--ncu", action="store_true",
                   help="also profile one call of each run with Nsight Compute (ncu.csv)")
    p.add_argument("--json", action="store_true")
    return ap


def _run_kernels(args: argparse.Namespace) -> int:
    from swizzlekit.kernels import KERNELS

    if args.cmd == "list":
        rows = [{"name": k.name, "backend": k.backend, "precisions": list(k.dtypes),
                 "takes_order": k.takes_order, "demonstrates": k.demonstrates}
                for k in KERNELS.values()]
        _emit({"kernels": rows}, args.json, "\n".join(
            f"{r['name']:22s} {r['backend']:13s} {','.join(r['precisions']):18s} {r['demonstrates']}"
            for r in rows))
        return 0
    from swizzlekit.kernels.cuda.ladder import RUNGS, build, expressions, rung

    if args.cmd == "build":
        modules = build(args.arch)
        rows = [{"kernel": r.name, "instance": expr, "arch": args.arch,
                 **modules[r.source].resources.get(modules[r.source].lowered[expr], {})}
                for r in RUNGS for expr in expressions(r)]
        _emit({"arch": args.arch, "kernels": rows}, args.json, "\n".join(
            f"{r['kernel']:22s} {r['instance']:42s} {r.get('registers', '?'):>4} regs "
            f"{r.get('smem_bytes', '?'):>6} B smem  spills {r.get('spill_stores', '?')}/"
            f"{r.get('spill_loads', '?')}" for r in rows))
        return 0
    r = rung(args.name)
    compiled = build(args.arch, [r.name])[r.source]
    if args.cmd == "ptx":
        _emit({"kernel": r.name, "arch": args.arch, "ptx": compiled.ptx}, args.json, compiled.ptx)
        return 0
    import shutil
    import subprocess
    import tempfile

    tool = shutil.which("cuobjdump")
    if tool is None:
        raise SwizzleKitError("sass needs cuobjdump (CUDA toolkit) on PATH; none found")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(compiled.cubin)
        f.flush()
        sass = subprocess.run([tool, "--dump-sass", f.name], capture_output=True, text=True).stdout
    _emit({"kernel": r.name, "arch": args.arch, "sass": sass}, args.json, sass)
    return 0


def _has_gpu() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def _run_bench(args: argparse.Namespace) -> int:
    from swizzlekit.lab.bench import bench, chart, runs

    orders = []
    for text in args.order or ["grouped:group=8"]:
        name, _, rest = text.partition(":")
        orders.append((name, _order_params([p for p in rest.split(",") if p])))
    run_list = runs(args.suite or ["square"], args.precision or ["bf16"],
                    args.kernel or ["triton"], orders)
    if not _has_gpu():
        print("swizzlekit: error: bench needs torch with a CUDA GPU; none here", file=sys.stderr)
        return 1
    rows = bench(run_list, args.out, warm=args.warm, progress=not args.json)
    if args.ncu:
        from swizzlekit.lab.bench import profile_runs

        profiled = {(r["kernel"], r["order"], str(r["M"]), str(r["N"]), str(r["K"]),
                     r["precision"]): r for r in profile_runs(run_list, args.out)}
        for r in rows:
            hit = profiled.get((r["kernel"], r["order"], r["M"], r["N"], r["K"], r["precision"]))
            if hit:
                r.update(l2_hit_rate_pct=hit["l2_hit_rate_pct"],
                         dram_read_bytes=hit["dram_read_bytes"],
                         smem_bank_conflicts_ld=hit["smem_bank_conflicts_ld"])
    charts = [str(chart(rows, s, p, args.out / f"chart_{s}_{p}.png"))
              for s in sorted({r["suite"] for r in rows}) for p in sorted({r["precision"] for r in rows})
              if any(r["suite"] == s and r["precision"] == p for r in rows)]
    text = "\n".join(f"{r['suite']:12s} {r['M']}x{r['N']}x{r['K']:<6} {r['precision']:5s} "
                     f"{r['kernel']:18s} {r['order']:10s} {float(r['tflops']):8.1f} TFLOP/s "
                     f"{float(r['vs_cublas']):6.3f}x  {'ok' if r['ok'] == 'True' else 'WRONG'}"
                     + (f"  L2 {r['l2_hit_rate_pct']}%  DRAM {int(r['dram_read_bytes']) / 1e6:.0f} MB"
                        f"  bank conflicts {r['smem_bank_conflicts_ld']}"
                        if "l2_hit_rate_pct" in r else "")
                     for r in rows)
    _emit({"rows": rows, "charts": charts}, args.json,
          text + f"\n(L2 {'not ' if args.warm else ''}flushed before each repetition; "
          f"results in {args.out})")
    return 0


def _run_report(args: argparse.Namespace) -> int:
    from swizzlekit.gpus import gpu
    from swizzlekit.report import build

    gpu(args.gpu)                       # a bad preset is bad input (2) before any work
    if args.measure and not _has_gpu():
        print("swizzlekit: error: report --measure needs torch with a CUDA GPU; none here",
              file=sys.stderr)
        return 1
    data = build(args.gpu, args.out, measure=args.measure, progress=not args.json)
    recommended = {"x".join(map(str, s["shape"])): s["recommended"] for s in data["cta"]["shapes"]}
    summary = {"html": str(args.out / "report.html"), "json": str(args.out / "report.json"),
               "pngs": len(list((args.out / "img").glob("*.png"))), "gpu": args.gpu,
               "measured": args.measure,
               "smem_conflict_free": sum(t["conflict_free"] for t in data["smem"]["gemm_tiles"]),
               "smem_tiles": len(data["smem"]["gemm_tiles"]), "recommended_orders": recommended}
    _emit(summary, args.json, f"wrote {summary['html']} ({summary['pngs']} PNGs inlined; every "
          f"number in {summary['json']})\n"
          f"shared memory: {summary['smem_conflict_free']}/{summary['smem_tiles']} GEMM tiles "
          f"conflict-free under the solver's layout\n"
          + "\n".join(f"CTA order for {k}: {v}" for k, v in recommended.items()))
    return 0


def _dims(count: int):
    def parse(text: str) -> tuple[int, ...]:
        parts = text.strip().split("x")
        if len(parts) != count or not all(p.isdigit() and int(p) > 0 for p in parts):
            form = "MxNxK" if count == 3 else "RxC"
            raise argparse.ArgumentTypeError(f"{text!r} must be {form} with positive integers")
        return tuple(int(p) for p in parts)
    return parse


def _run_simulate(args: argparse.Namespace) -> int:
    from swizzlekit.cta import order
    from swizzlekit.cta.l2 import simulate
    from swizzlekit.cta.rank import label, rank
    from swizzlekit.gpus import gpu

    g = gpu(args.gpu)
    (m, n, k), (bm, bn, bk) = args.mnk, args.tile
    tm, tn = -(-m // bm), -(-n // bn)
    settings = dict(tile=(bm, bn, bk), elem_bytes=args.elem_bytes, l2_bytes=g.l2_bytes,
                    concurrent=args.concurrent or g.sms, partitions=g.l2_partitions)
    if args.order != "all":
        params = _order_params(args.param)
        pred = simulate(m, n, k, order(args.order, tm, tn, **params), **settings)
        out = {"order": args.order, "params": params, "gpu": args.gpu, **pred.to_dict()}
        _emit(out, args.json, f"{label(args.order, params)} on {g.name}: L2 hit rate "
              f"{pred.l2_hit_rate:.1f}%, DRAM read {pred.dram_read_bytes / 1e6:.0f} MB "
              f"({pred.waves} waves of {settings['concurrent']} CTAs)")
        return 0
    ranked = rank(m, n, k, gpu=args.gpu, tile=(bm, bn, bk), elem_bytes=args.elem_bytes,
                  concurrent=args.concurrent)
    best = ranked[0]
    out = {"gpu": args.gpu, "recommended": best, "ranking": ranked,
           "l2_hit_rate": best["l2_hit_rate"], "dram_read_bytes": best["dram_read_bytes"]}
    lines = [f"{'order':22s} {'L2 hit %':>9s} {'DRAM read MB':>13s}"]
    lines += [f"{label(r['order'], r['params']):22s} "
              f"{r['l2_hit_rate']:9.1f} {r['dram_read_bytes'] / 1e6:13.0f}" for r in ranked]
    lines.append(f"recommended: {best['order']} {best['params'] or ''}")
    _emit(out, args.json, "\n".join(lines))
    return 0


def _order_params(pairs: list[str]) -> dict:
    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SwizzleKitError(f"order parameter {pair!r} must be KEY=VALUE, e.g. group=8")
        out[key] = int(value) if value.lstrip("-").isdigit() else value
    return out


def _run_cta(args: argparse.Namespace) -> int:
    if args.cmd == "simulate":
        return _run_simulate(args)
    from swizzlekit.cta import order, wave_tile_loads
    from swizzlekit.plots import save_order_map

    tm, tn = args.grid
    if args.concurrent < 1:
        raise SwizzleKitError(f"--concurrent {args.concurrent} must be a positive integer")
    params = _order_params(args.param)
    o = order(args.order, tm, tn, **params)
    label = args.order + "".join(f" {k}={v}" for k, v in params.items())
    path = save_order_map(args.out, o, tm, tn, args.concurrent, f"{label} on {tm}x{tn} tiles")
    loads = wave_tile_loads(o, 1, args.concurrent)
    _emit({"png": str(path), "order": o.tolist(), "tile_loads_per_k_step": loads}, args.json,
          f"wrote {path}; A+B tiles per K step, per wave: {loads}")
    return 0


def _emit(obj: dict, as_json: bool, text: str) -> None:
    print(json.dumps(obj, indent=2) if as_json else text)


def _solution_text(sol) -> str:
    from swizzlekit.smem import cuda_function, cute_type, triton_expr

    lines = [f"layout         {sol.layout}  ({sol.family})",
             f"CuTe           {sol.cute or 'not expressible'}"
             + (f"  (CuTe forbids Swizzle<{','.join(map(str, sol.cute_forbidden))}>)"
                if sol.cute_forbidden else ""),
             f"TMA            {f'SWIZZLE_{sol.tma_mode}B' if sol.tma_mode else 'no mode'}",
             f"conflict-free  {'yes' if sol.conflict_free else 'no'}",
             f"proof          {sol.proof}", "", sol.analysis.table(), "",
             "CUDA:", cuda_function(sol.layout), "",
             f"Triton:  {triton_expr(sol.layout)}",
             f"CuTe:    {cute_type(sol.layout) or 'not expressible'}"]
    return "\n".join(lines)


def _run_smem(args: argparse.Namespace) -> int:
    from swizzlekit.smem import (CASES, analyze, bank_conflicts, phases, solve, wavefronts)
    from swizzlekit.smem.layouts import RowMajor, parse_layout

    if args.cmd == "wavefronts":
        addrs = [None if a == "-" else _int(a) for a in args.addresses]
        wf = wavefronts(addrs, args.width, args.op)
        out = {"wavefronts": wf, "bank_conflicts": bank_conflicts(addrs, args.width, args.op),
               "phases": phases(addrs, args.width, args.op)}
        _emit(out, args.json, f"{wf} wavefronts, {out['bank_conflicts']} bank conflicts")
        return 0
    if args.cmd == "cases":
        return _run_cases(args, CASES, solve)
    rows, cols = args.shape
    if args.cmd == "solve":
        sol = solve(rows, cols, args.elem_bytes, args.access)
        _emit(sol.to_dict(), args.json, _solution_text(sol))
        return 0
    layout = (parse_layout(args.layout, rows, cols, args.elem_bytes) if args.layout
              else None)
    if args.cmd == "check":
        if layout is None:
            raise SwizzleKitError("smem check needs --layout (e.g. swizzle:3,0,3 or row-major)")
        result = analyze(layout, args.access, args.elem_bytes)
        _emit(result.to_dict(), args.json, f"layout {layout}\n\n{result.table()}")
        return 0
    from swizzlekit.plots import save_bank_maps

    after = layout or solve(rows, cols, args.elem_bytes, args.access).layout
    before = RowMajor(rows, cols)
    panels = [(before, args.access[0], f"before: {before}"),
              (after, args.access[0], f"after: {after}")]
    path = save_bank_maps(args.out, panels, args.elem_bytes,
                          f"{rows}x{cols} tile of {args.elem_bytes}-byte elements")
    _emit({"png": str(path)}, args.json, f"wrote {path}")
    return 0


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise SwizzleKitError(f"address {text!r} is not an integer (or '-' for inactive)") \
            from None


def _run_cases(args: argparse.Namespace, cases, solve) -> int:
    from rich.console import Console
    from rich.table import Table

    results = []
    for c in cases:
        sol = solve(c.rows, c.cols, c.elem_bytes, c.accesses)
        entry = {"case": c.name, "source": c.source, "shape": [c.rows, c.cols],
                 "seed_answer": c.seed_answer, **sol.to_dict(), "access_specs": list(c.accesses)}
        entry.pop("offsets")
        if args.out is not None:
            from swizzlekit.plots import save_bank_maps, worst_placement
            from swizzlekit.smem.layouts import RowMajor

            slug = re.sub(r"[^a-z0-9]+", "_", c.name.lower()).strip("_")
            before = RowMajor(c.rows, c.cols)
            conflicted = max(c.accesses,
                             key=lambda a: worst_placement(before, a, c.elem_bytes)[1])
            entry["png"] = str(save_bank_maps(
                args.out / f"{slug}.png",
                [(before, conflicted, f"before: {before}"),
                 (sol.layout, conflicted, f"after: {sol.layout}")],
                c.elem_bytes, f"{c.name} ({c.source}), {c.elem_bytes}-byte elements"))
        results.append(entry)
    if args.json:
        print(json.dumps({"cases": results}, indent=2))
        return 0
    table = Table(title="Shared-memory cases: the solver's layout, checked by the analyzer")
    for col in ("case", "accesses", "layout", "CuTe", "conflict-free", "seed's answer"):
        table.add_column(col, overflow="fold")
    for r in results:
        cute = r["cute"] or (f"forbidden {r['cute_forbidden']}" if r["cute_forbidden"] else "-")
        if r["tma_mode"]:
            cute += f" = TMA {r['tma_mode']}"
        table.add_row(r["case"], " ".join(r["access_specs"]), r["layout"], cute,
                      "yes" if r["conflict_free"] else "no", r["seed_answer"])
    Console(width=160).print(table)
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.area == "smem":
            return _run_smem(args)
        if args.area == "cta":
            return _run_cta(args)
        if args.area == "bench":
            return _run_bench(args)
        if args.area == "kernels":
            return _run_kernels(args)
        if args.area == "reproduce":
            if not _has_gpu():
                print("swizzlekit: error: reproduce needs torch with a CUDA GPU; none here",
                      file=sys.stderr)
                return 1
            from swizzlekit.lab.experiments import reproduce

            out = args.out / args.seed
            text = (reproduce.seed002(out, progress=not args.json) if args.seed == "seed002"
                    else reproduce.seed001(out))
            _emit({"seed": args.seed, "table": text, "out": str(out)}, args.json, text)
            return 0
        if args.area == "report":
            return _run_report(args)
        raise SwizzleKitError(f"unknown area {args.area!r}")  # pragma: no cover
    except SwizzleKitError as e:
        print(f"swizzlekit: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:          # output piped into head and the like
        return 0


if __name__ == "__main__":
    sys.exit(main())
