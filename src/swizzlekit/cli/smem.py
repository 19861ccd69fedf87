"""``swizzlekit smem``: solve, check, show, cases, wavefronts (shared-memory swizzles)."""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path

from swizzlekit.cli.common import Parser, dims, emit, out_dir, out_file
from swizzlekit.errors import SwizzleKitError, check_choice

__all__ = ["add", "run"]


def _common(p: argparse.ArgumentParser, layout: bool = False, ops: bool = False) -> None:
    p.add_argument("--shape", type=dims(2), required=True, help="tile rows x cols, e.g. 8x32")
    p.add_argument("--elem-bytes", type=int, required=True, help="element size: 1,2,4,8,16")
    p.add_argument("--access", action="append", required=not ops, default=[], metavar="SPEC",
                   help="row, col or block:RxC[:vec=V][:stride=SRxSC]; repeat for more")
    if ops:    # the forms are listed by the error a bad one gets (smem.instructions)
        p.add_argument("--read", default=None, metavar="OP",
                       help="the reading instruction (ld.vN:row|col, ldmatrix.xN[.trans]) or "
                            "auto[:row|col]")
        p.add_argument("--write", default=None, metavar="OP",
                       help="the writing instruction (st.vN:row|col, cp.async:row|col, "
                            "stmatrix.xN[.trans], tma) or auto[:row|col]")
    if layout:
        p.add_argument("--layout", default=None, metavar="SPEC",
                       help="row-major, pad:P, swizzle:B,M,S, xor:B,M,S, linear:..., "
                            "xor-cols:BITS[,..], triton:VEC,PP,MP, tma:MODE, interleave:K")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def add(top) -> None:
    smem = top.add_parser("smem", help="shared-memory swizzles: solve, check, show, cases")
    sub = smem.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    _common(sub.add_parser("solve", help="find the layout that avoids bank conflicts"),
            ops=True)
    _common(sub.add_parser("check", help="wavefronts of each access under a layout"), True)
    p = sub.add_parser("show", help="PNG bank maps, before and after, of the access that "
                       "conflicts most (of those given with --access)")
    _common(p, layout=True)
    p.add_argument("--out", type=Path, required=True, help="PNG file to write")
    p.add_argument("--draw", default=None, metavar="SPEC",
                   help="which of the --access specs to draw (default: the one that "
                        "conflicts most before)")
    p = sub.add_parser("cases", help="solve and check every built-in case (seeds 004, 002)")
    p.add_argument("--out", type=Path, default=None, help="folder for bank-map PNGs")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("bench", help="time the solver on its largest tiles and the seed "
                                     "cases (cold, median of --repeats)")
    p.add_argument("--repeats", type=int, default=3, help="cold runs per tile (1-20)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("wavefronts", help="the bank model for one warp instruction")
    p.add_argument("addresses", nargs="+", help="byte address per lane, '-' for inactive")
    p.add_argument("--width", type=int, default=4, help="access width: 4, 8 or 16 bytes")
    p.add_argument("--op", default="ld", help="ld, st, ldmatrix or stmatrix")
    p.add_argument("--json", action="store_true")


def _solution_text(sol) -> str:
    from swizzlekit.smem import cuda_function, cute_type, triton_expr

    lines = [f"layout         {sol.layout}  ({sol.family})",
             f"CuTe           {sol.cute or 'not expressible'}"
             + (f"  (CuTe forbids Swizzle<{','.join(map(str, sol.cute_forbidden))}>)"
                if sol.cute_forbidden else ""),
             f"TMA            {f'SWIZZLE_{sol.tma_mode}B' if sol.tma_mode else 'no mode'}"
             + (f"  (as good: {sol.tma_equivalent})"
                if sol.tma_equivalent is not None and not sol.tma_mode else ""),
             f"storage        {sol.storage} elements ({sol.storage * sol.analysis.elem_bytes}"
             f" bytes)"]
    if sol.instructions:
        lines.append("instructions   " + ", ".join(f"{side} {op}" for side, op in
                                                   sol.instructions))
    lines += [f"conflict-free  {'yes' if sol.conflict_free else 'no'}",
              f"optimal        {'yes' if sol.optimal else 'best found'}",
              f"proof          {sol.proof}", "", sol.analysis.table(), "",
              "CUDA:", cuda_function(sol.layout), "",
              f"Triton:  {triton_expr(sol.layout)}",
              f"CuTe:    {cute_type(sol.layout) or 'not expressible'}"]
    return "\n".join(lines)


def _int(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise SwizzleKitError(f"address {text!r} is not an integer (or '-' for inactive)") \
            from None
    if not 0 <= value < 2**32:
        raise SwizzleKitError(f"address {text!r} must be a byte address from 0 to 2^32-1")
    return value


def run(args: argparse.Namespace) -> int:
    from swizzlekit.smem import CASES, analyze, bank_conflicts, phases, solve, wavefronts
    from swizzlekit.smem.layouts import RowMajor
    from swizzlekit.smem.specs import parse_layout

    if args.cmd == "wavefronts":
        addrs = [None if a == "-" else _int(a) for a in args.addresses]
        wf = wavefronts(addrs, args.width, args.op)
        out = {"wavefronts": wf, "bank_conflicts": bank_conflicts(addrs, args.width, args.op),
               "phases": phases(addrs, args.width, args.op)}
        emit(out, args.json, f"{wf} wavefronts, {out['bank_conflicts']} bank conflicts")
        return 0
    if args.cmd == "cases":
        return _cases(args, CASES, solve)
    if args.cmd == "bench":
        return _bench(args)
    rows, cols = args.shape
    if args.cmd == "show":
        out_file(args.out, (".png",))
    if args.cmd == "solve":
        if not (args.access or args.read or args.write):
            raise SwizzleKitError("smem solve needs --access, --read or --write")
        sol = solve(rows, cols, args.elem_bytes, args.access, read=args.read, write=args.write)
        emit(sol.to_dict(), args.json, _solution_text(sol))
        return 0
    layout = parse_layout(args.layout, rows, cols, args.elem_bytes) if args.layout else None
    if args.cmd == "check":
        if layout is None:
            raise SwizzleKitError("smem check needs --layout (e.g. swizzle:3,0,3 or row-major)")
        result = analyze(layout, args.access, args.elem_bytes)
        emit(result.to_dict(), args.json, f"layout {layout}\n\n{result.table()}")
        return 0
    from swizzlekit.plots import save_bank_maps

    after = layout or solve(rows, cols, args.elem_bytes, args.access).layout
    analyze(after, args.access, args.elem_bytes)            # every access spec checked
    before = RowMajor(rows, cols)
    # the access that conflicts most before (the first of equals): the one worth a picture
    reports = analyze(before, args.access, args.elem_bytes).reports
    drawn = args.access[max(range(len(reports)), key=lambda i: (reports[i].conflict_degree,
                                                                -i))]
    if args.draw is not None:
        drawn = check_choice("--draw", args.draw, tuple(args.access))
    panels = [(before, drawn, f"before: {before}, {drawn}"),
              (after, drawn, f"after: {after}, {drawn}")]
    path = save_bank_maps(args.out, panels, args.elem_bytes,
                          f"{rows}x{cols} tile of {args.elem_bytes}-byte elements")
    why = "as --draw asked" if args.draw is not None else "the access that conflicts most before"
    emit({"png": str(path), "access": drawn}, args.json, f"wrote {path} ({drawn}, {why})")
    return 0


def _cases(args: argparse.Namespace, cases, solve) -> int:
    from rich.console import Console
    from rich.table import Table

    if args.out is not None:
        out_dir(args.out)
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


def _bench(args: argparse.Namespace) -> int:
    import platform

    import numpy as np
    from rich.console import Console
    from rich.table import Table

    from swizzlekit.smem.timing import run

    rows = run(repeats=args.repeats)
    machine = {"machine": platform.machine(), "python": platform.python_version(),
               "numpy": np.__version__, "cores": os.cpu_count()}
    if args.json:
        print(json.dumps({"machine": machine, "tiles": rows}, indent=2))
        return 0
    table = Table(title=f"solve(), cold, median of {args.repeats} "
                        f"({machine['cores']} cores, Python {machine['python']})")
    for col in ("tile", "accesses", "answer", "median", "slowest", "goal"):
        table.add_column(col)
    for r in rows:
        answer = f"{r['wavefronts']}/{r['lower_bound']} {r['family']}, {r['storage']} el"
        table.add_row(r["tile"], r["accesses"], answer, f"{r['median_s']:.3f} s",
                      f"{r['slowest_s']:.3f} s",
                      f"{'met' if r['met'] else 'MISSED'} < {r['goal_s']} s")
    Console().print(table)
    return 0
