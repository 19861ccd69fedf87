"""``swizzlekit kernels``: list the registry; the Triton GEMM's configs for a shape (the config
model's ranking, on the CPU); build, ptx, sass of the CUDA kernels (NVRTC; ``build --cutlass``:
CUTLASS's clustered GEMM by nvcc)."""

from __future__ import annotations

import argparse

from swizzlekit.cli.common import Parser, dims, emit
from swizzlekit.errors import ToolError

__all__ = ["add", "run"]


def add(top) -> None:
    kern = top.add_parser("kernels", help="GEMM kernels: list, configs, build, ptx, sass")
    sub = kern.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    p = sub.add_parser("list", help="every registered kernel")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("configs", help="the Triton GEMM's tile configs for one shape, ranked by "
                       "the config model, the ones the default autotune times, and the order "
                       "(CPU only)")
    p.add_argument("--mnk", type=dims(3), required=True, help="MxNxK, e.g. 512x4096x4096")
    p.add_argument("--precision", default="bf16", help="bf16, fp16, tf32, fp32 or fp8")
    p.add_argument("--kernel", default="auto", help="the load path the call asks for: auto "
                   "(tma=None, the default), tma or pointer")
    p.add_argument("--persistent", action="store_true", help="a persistent grid")
    p.add_argument("--gpu", default=None, help="the GPU preset to plan for (h200, h100-sxm, "
                   "...; default: this machine's GPU, else h200)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("build", help="compile every CUDA kernel with NVRTC (no GPU needed)")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--cutlass", action="store_true",
                   help="instead, build CUTLASS's clustered GEMMs (nvcc, sm_90a) for bf16, fp16 "
                        "and fp8 into the cache, which the first call of matmul or "
                        "scaled_matmul that times them would otherwise build")
    p.add_argument("--json", action="store_true")
    for verb in ("ptx", "sass"):
        p = sub.add_parser(verb, help=f"the {verb.upper()} of one CUDA kernel")
        p.add_argument("name")
        p.add_argument("--arch", default="sm_90")
        p.add_argument("--json", action="store_true")


def _sass(cubin: bytes) -> str:
    import shutil
    import subprocess
    import tempfile

    tool = shutil.which("cuobjdump")
    if tool is None:
        raise ToolError("sass needs cuobjdump (CUDA toolkit) on PATH; none found")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        done = subprocess.run([tool, "--dump-sass", f.name], capture_output=True, text=True,
                              timeout=120)
    if done.returncode != 0:
        raise ToolError(f"cuobjdump failed: {(done.stderr or done.stdout).strip()[:200]}")
    return done.stdout


#: The most nvcc processes ``kernels build --cutlass`` runs at once (each CUTLASS build takes
#: about a minute of one core and 2-4 GB of memory).
CUTLASS_BUILDS_AT_ONCE = 4


def _build_cutlass(args: argparse.Namespace) -> int:
    """CUTLASS's clustered GEMMs built (or found in the cache) for each element type and
    tiles, up to :data:`CUTLASS_BUILDS_AT_ONCE` (and no more than the cores) at once."""
    import os
    import warnings

    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.kernels.cuda import cutlass_fp8
    from swizzlekit.kernels.cuda.cutlass import ELEMENTS, TILES16, build, build_all

    if args.arch not in ("sm_90", "sm_90a"):
        raise SwizzleKitError(f"--cutlass builds for sm_90a only; --arch {args.arch!r} is not "
                              f"valid with it (leave it out, or give sm_90 or sm_90a)")
    jobs = [(dtype, tiles, lambda d=dtype, t=tiles: build(d, t))
            for dtype in ELEMENTS for tiles in TILES16]
    jobs += [("float8_e4m3fn", tiles, lambda t=tiles: cutlass_fp8.build(t))
             for tiles in (cutlass_fp8.TILES, *cutlass_fp8.SWAPPED)]
    with warnings.catch_warnings():              # the build was asked for: no warning
        warnings.simplefilter("ignore")
        paths = build_all([job[2] for job in jobs],
                          min(CUTLASS_BUILDS_AT_ONCE, os.cpu_count() or 1))
    rows = [{"dtype": dtype, "tiles": tiles, "path": str(path)}
            for (dtype, tiles, _), path in zip(jobs, paths)]
    emit({"cutlass": rows}, args.json, "\n".join(
        f"cutlass {r['dtype']:13s} {r['tiles']:24s} {r['path']}" for r in rows))
    return 0


def run(args: argparse.Namespace) -> int:
    from swizzlekit.kernels import KERNELS

    if args.cmd == "list":
        rows = [{"name": k.name, "backend": k.backend, "precisions": list(k.dtypes),
                 "takes_order": k.takes_order, "demonstrates": k.demonstrates}
                for k in KERNELS.values()]
        emit({"kernels": rows}, args.json, "\n".join(
            f"{r['name']:22s} {r['backend']:13s} {','.join(r['precisions']):18s} "
            f"{r['demonstrates']}" for r in rows))
        return 0
    if args.cmd == "configs":
        return _configs(args)
    if args.cmd == "build" and args.cutlass:
        return _build_cutlass(args)
    from swizzlekit.kernels.cuda.ladder import RUNGS, build, expressions, rung
    from swizzlekit.kernels.cuda.nvrtc import check_arch

    check_arch(args.arch)
    if args.cmd == "build":
        from swizzlekit.gpus import GPUS, residency

        modules = build(args.arch)
        preset = next((k for k, g in GPUS.items() if g.arch == args.arch), None)
        rows = []
        for r in RUNGS:
            for expr in expressions(r):
                res = modules[r.source].resources.get(modules[r.source].lowered[expr], {})
                row = {"kernel": r.name, "instance": expr, "arch": args.arch, **res,
                       "threads": r.block[0] * r.block[1], "dynamic_smem_bytes": r.dynamic_smem,
                       "tile": list(r.tile), "ctas_per_sm": None, "gpu": preset}
                if preset and "registers" in res:
                    row["ctas_per_sm"] = residency(preset, row["threads"], res["registers"],
                                                   res.get("smem_bytes", 0) + r.dynamic_smem)
                rows.append(row)
        emit({"arch": args.arch, "kernels": rows}, args.json, "\n".join(
            f"{r['kernel']:22s} {r['instance']:42s} {r.get('registers', '?'):>4} regs "
            f"{r.get('smem_bytes', 0) + r['dynamic_smem_bytes']:>6} B smem  spills "
            f"{r.get('spill_stores', '?')}/{r.get('spill_loads', '?')}  "
            f"{r['ctas_per_sm'] if r['ctas_per_sm'] is not None else '?'} CTAs/SM"
            + (f" ({r['gpu']})" if r['gpu'] else "") for r in rows))
        return 0
    r = rung(args.name)
    compiled = build(args.arch, [r.name])[r.source]
    if args.cmd == "ptx":
        emit({"kernel": r.name, "arch": args.arch, "ptx": compiled.ptx}, args.json, compiled.ptx)
        return 0
    sass = _sass(compiled.cubin)
    emit({"kernel": r.name, "arch": args.arch, "sass": sass}, args.json, sass)
    return 0


def _large_swapped(plan) -> bool:
    """Whether a TMA plan's ranked configs hold a tile that a launch splitting K may not take
    (``matmul_configs._one_tile_may_take``)."""
    from swizzlekit.kernels.triton.choose import _parse
    from swizzlekit.kernels.triton.matmul_configs import _one_tile_may_take

    return plan.kernel == "tma" and not plan.persistent and any(
        not _one_tile_may_take(bm, bn, swap, split_k=2)
        for bm, bn, *_, swap in map(_parse, (r.config for r in plan.configs)))


def _clustered(plan) -> bool:
    """Whether the call's first call times CUTLASS's clustered GEMM (:mod:`.clustered`'s rules
    for contiguous operands on an sm_90 preset, fp8 with one scale per tensor and bf16 out,
    not under ``SWIZZLEKIT_AUTOTUNE=0``; nvcc and the headers aside)."""
    from swizzlekit.gpus import gpu
    from swizzlekit.kernels.cuda.cutlass import ALIGN
    from swizzlekit.kernels.triton.clustered import fp8_sized, sized

    if plan.persistent or gpu(plan.gpu).arch != "sm_90" or plan.copies or plan.mode == "0":
        return False
    if plan.precision == "fp8":                  # A and Bᵀ in rows of K bytes, C of N bf16
        return plan.K % 16 == 0 and plan.N % 8 == 0 and fp8_sized(plan.M, plan.N, plan.K)
    return (plan.precision in ("bf16", "fp16") and plan.kernel == "tma"
            and plan.N % ALIGN == 0 and plan.K % ALIGN == 0
            and sized(plan.M, plan.N, plan.K, plan.N))


def _clustered_candidates(plan) -> list[str]:
    """The configs of the CUTLASS candidates a clustered call's first call times (as
    ``describe`` names the one kept)."""
    if plan.precision != "fp8":
        from swizzlekit.kernels.triton.clustered import CUTLASS_CANDIDATES

        return list(CUTLASS_CANDIDATES)
    from swizzlekit.kernels.cuda.cutlass_fp8 import config
    from swizzlekit.kernels.triton.clustered import fp8_candidates

    return [config(*c) for c in fp8_candidates(plan.M)]


def _configs(args: argparse.Namespace) -> int:
    from swizzlekit.kernels.triton.explain import autotune_plan

    plan = autotune_plan(*args.mnk, args.precision, args.kernel, args.persistent, args.gpu)
    order = plan.order + "".join(f" {k}={v}" for k, v in sorted(plan.order_params.items()))
    form = ((", persistent" if plan.persistent else "") + (", Cᵀ = Bᵀ Aᵀ" if plan.swapped else "")
            + (" on aligned copies ({}x{}x{})".format(*plan.kernel_shape) if plan.copies else "")
            + (", {} copied into 128-byte rows first".format(" and ".join(plan.copied))
               if plan.copied else "")
            + (", C written by masked stores" if plan.c_masked else "")
            + (", B read from a copy in 128-byte rows" if plan.b_pitch_copy else "")
            + (", B copied K-major first" if plan.b_kmajor_copy else ""))
    head = (f"{plan.M}x{plan.N}x{plan.K} {plan.precision} on {plan.gpu}, {plan.kernel} "
            f"kernel{form}: "
            f"{len(plan.configs)} configs fit; SWIZZLEKIT_AUTOTUNE={plan.mode} times {plan.timed}"
            + (" (both operands narrow: one per group of stage twins)"
               if plan.both_narrow and plan.mode == "model" else ""))
    # C from registers taken with nothing timed beside it: the autotuned configs never run
    regs_alone = (bool(plan.c_regs) and not plan.c_regs_timed and plan.splits == (1,)
                  and not plan.wide and not plan.tail_ways)
    lines = [head, f"{'rank':>4}  {'config':26s} {'predicted':>12}  timed"]
    lines += [f"{i:>4}  {r.config:26s} {r.seconds * 1e6:>9.1f} us  "
              f"{'yes' if r.timed and not regs_alone else ''}"
              for i, r in enumerate(plan.configs, 1)]
    lines.append(f"order: {order} ({plan.order_reason})")
    lines.append("split of K: " + (
        "S = {}, timed on the first call, the fastest kept (split_k=None)".format(
            " or ".join(map(str, plan.splits))) if len(plan.splits) > 1 else "none")
        + ("; a split of 2 or more times none of the swapped tiles of 256x128 or more "
           "(matmul_configs._prune)" if len(plan.splits) > 1 and _large_swapped(plan) else ""))
    if plan.wide:
        lines.append(f"composite tiles: {', '.join(plan.wide)}, timed against the autotuned "
                     f"config on the first call where the split kept is 1, the fastest kept "
                     f"(kernels/triton/waves.py)")
    if plan.tail_ways:
        by = ", by TMA" if plan.kernel == "pointer" else ""     # fp8's plain plan by pointers
        lines.append(f"tail split: the last partial wave's tiles split {plan.tail_ways} ways in "
                     f"even shares of K (128x256 tiles{by}), timed against the autotuned config "
                     f"on the first call where the split kept is 1, the fastest kept "
                     f"(kernels/triton/waves.py)")
    if plan.c_regs:
        how = ("timed against the autotuned config on the first call where the split kept is "
               "1, the faster kept" if plan.c_regs_timed else
               "run in place of the autotuned config where the split kept is 1"
               + (", so here always: the configs above are not timed" if regs_alone else ""))
        lines.append(f"C from registers: {', '.join(plan.c_regs)}, {how} "
                     f"(kernels/triton/matmul_configs.py, C_REGS_TILES, C_REGS_RULE_MIN_M)")
    clustered = _clustered(plan)
    candidates = _clustered_candidates(plan) if clustered else []
    if clustered and plan.precision == "fp8":
        tiles = " and ".join(dict.fromkeys(c.removesuffix("/stream-k") for c in candidates))
        lines.append(f"CUTLASS's fp8 GEMM in clusters of two CTAs ({tiles}), in whole tiles "
                     "and in stream-K: the first call times each against this plan, the "
                     "fastest kept, where nvcc and CUTLASS's headers are found and each "
                     "operand has one scale (kernels/triton/clustered.py)")
    elif clustered:
        lines.append(f"CUTLASS's GEMM in clusters of two CTAs ({' and '.join(candidates)}): "
                     "B's rows do not all start on 64-byte boundaries, so the first call times "
                     "each against this plan, the fastest kept, where nvcc and CUTLASS's "
                     "headers are found (kernels/triton/clustered.py)")
    lines += [f"hint: {h}" for h in plan.hints]
    emit({**plan.to_dict(), "clustered_timed": clustered, "clustered_candidates": candidates},
         args.json, "\n".join(lines))
    return 0
