"""The L2 model's fit and held-out tables: many shapes, tile configs, residencies, element
types and orders, each launch of the order-table GEMM profiled by Nsight Compute.

What one run is (:class:`SweepRun`): a shape, a tile config of
:data:`~swizzlekit.kernels.triton.table_gemm.TILE_CONFIGS` with an element type (its residency
is the compiled kernel's own, from its registers and shared memory), an order with its
parameters (or a seeded random permutation), and whether the grid is persistent.

The split is by shape, and fixed here: :data:`FIT_SHAPES` fit the model's free parameters,
:data:`HELDOUT_SHAPES` judge it. Each half covers squares, LLM projections, tall and wide
shapes, and small and large K. :data:`FRESH_SHAPES` (``--set fresh``) are a third set,
measured after the model was fitted and judged once; :data:`CLAIMS_PROBLEMS` (``--set
claims``) a fourth, drawn to judge the time model's claim rule.

``swizzlekit lab l2-sweep --out DIR [--shard I/N] [--set sweep|fresh]``: the runs of shard I of N (whole shapes,
so shards can run on different machines or calls; ``--cluster`` spreads a shard's problems
over GPUs). For each problem (a shape, tile config and element type: 13 runs) it first times
and checks every run against float64, then profiles every run once under ncu; the rows
stream into ``l2_sweep.csv`` (:class:`~swizzlekit.lab.records.L2SweepRow`, with the GPU each
ran on), and ``l2_sweep.json`` records the command.

>>> len(FIT_SHAPES), len(HELDOUT_SHAPES), len(plan()), len(plan("fresh")), len(plan("claims"))
(11, 11, 572, 208, 208)
>>> sorted({r.ctas_per_sm_hint for r in plan()})
[1, 2, 3, 4]
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from swizzlekit.errors import SwizzleKitError, ToolError, check_choice

__all__ = ["SweepRun", "FIT_SHAPES", "HELDOUT_SHAPES", "COMBOS", "ORDER_SET", "plan",
           "split_of", "sweep_order", "measured_kernels", "shard", "run", "measure", "METRICS",
           "checked_launch",
           "ELEM_BYTES", "OUT_BYTES", "FRESH_SHAPES", "CLAIMS_PROBLEMS", "SETS", "row_bytes"]

#: (M, N, K): squares, LLM projections (tokens x out x in), tall/wide, small and large K.
FIT_SHAPES = [(2048, 2048, 2048), (8192, 8192, 8192), (8192, 14336, 4096), (4096, 4096, 11008),
              (16384, 2048, 8192), (1024, 32768, 4096), (16384, 16384, 512),
              (2048, 2048, 32768), (3000, 5000, 4000), (6144, 6144, 6144), (4096, 28672, 2048)]
HELDOUT_SHAPES = [(4096, 4096, 4096), (12288, 12288, 2048), (8192, 4096, 14336),
                  (2048, 11008, 4096), (2048, 16384, 8192), (32768, 1024, 4096),
                  (8192, 8192, 256), (1024, 1024, 65536), (5000, 3000, 1000), (1024, 1024, 1024),
                  (16384, 4096, 4096)]
#: A third set, in neither half: measured once, after the model of 2026-11-23 was fitted, and
#: judged once (``--set fresh``; docs/cta.md). Never to be fitted on.
FRESH_SHAPES = [(3072, 3072, 3072), (4096, 14336, 4096), (6000, 7000, 3000),
                (24576, 2048, 2048), (1536, 1536, 8192), (10240, 10240, 1024),
                (2048, 28672, 4096), (14336, 4096, 8192)]
#: The runs ``--set`` names: the fit and held-out halves, the fresh set, or the claims set.
SETS = ("sweep", "fresh", "claims")

#: (tile config, element type, residency it has on the H200 as compiled there: 1 to 4 CTAs per
#: SM): every shape is
#: measured under two of these, chosen by its index, so each half sees every config.
COMBOS = [("128x128x64", "fp16", 2), ("64x64x64", "fp16", 4), ("128x256x64", "fp16", 1),
          ("256x128x64", "fp16", 1), ("128x128x32", "fp32", 2), ("64x128x64", "fp16", 3),
          ("128x128x128", "fp8", 2)]

#: Orders of swizzlekit.cta, plus seeded random permutations of the tiles.
ORDER_SET = [("row", {}), ("col", {}), ("grouped", {"group": 4}), ("grouped", {"group": 8}),
             ("grouped", {"group": 16}), ("grouped", {"group": 8, "along": "n"}),
             ("strip", {"width": 8}), ("snake", {}), ("morton", {}), ("hilbert", {}),
             ("random", {"seed": 0})]
#: Persistent grids (SMs x residency programs walking the order with a stride).
PERSISTENT_SET = [("grouped", {"group": 8}), ("row", {})]

#: Bytes per element of the sweep's element types.
ELEM_BYTES = {"fp8": 1, "fp16": 2, "bf16": 2, "fp32": 4}
#: C's element bytes per operand type: the order-table GEMM writes fp8 products in fp16.
OUT_BYTES = {**ELEM_BYTES, "fp8": 2}

METRICS = ("lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "gpu__time_duration.sum", "lts__t_sectors.sum", "lts__t_sectors_lookup_hit.sum",
           "lts__t_sectors_srcunit_tex_op_read.sum",
           "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
           "lts__t_sectors_srcunit_ltcfabric.sum",
           "lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum")


@dataclass(frozen=True)
class SweepRun:
    M: int
    N: int
    K: int
    config: str
    dtype: str
    order: str
    params: str               # sorted JSON
    persistent: bool
    ctas_per_sm_hint: int     # the residency expected; the measured row records the real one

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.M, self.N, self.K)

    def key(self) -> tuple:
        """The run as :meth:`swizzlekit.lab.records.L2SweepRow.key` names it."""
        return (self.M, self.N, self.K, self.config, self.dtype, self.order, self.params,
                self.persistent)


#: A fourth set, drawn on 2026-11-28 after the verdict's claim rule
#: (:func:`swizzlekit.cta.timing.reuse_bound`) was fixed, to judge it and the time model once
#: more (``--set claims``): shapes in no other set, each under two of :data:`COMBOS` (by
#: index) chosen so that the rule is tested both ways: 4-byte problems whose grids fill the
#: SMs (where it lets a claim through), one whose grid does not, and 16-bit and fp8 ones.
#: Never to be fitted on.
CLAIMS_PROBLEMS = [((5120, 5120, 5120), (4, 2)), ((8192, 3072, 6144), (4, 5)),
                   ((2560, 12288, 4096), (4, 6)), ((12288, 4096, 1536), (4, 0)),
                   ((1280, 1280, 16384), (4, 1)), ((7168, 7168, 2048), (3, 6)),
                   ((3584, 18944, 3584), (4, 0)), ((20480, 1536, 3072), (5, 4))]


def split_of(shape: tuple[int, int, int]) -> str:
    """"fit", "heldout", "fresh" or "claims" (or a SwizzleKitError for a shape in none)."""
    if tuple(shape) in FIT_SHAPES:
        return "fit"
    if tuple(shape) in HELDOUT_SHAPES:
        return "heldout"
    if tuple(shape) in FRESH_SHAPES:
        return "fresh"
    if tuple(shape) in {s for s, _ in CLAIMS_PROBLEMS}:
        return "claims"
    raise SwizzleKitError(f"{shape} is in none of the L2 sweep's sets ({', '.join(SETS)})")


def plan(which: str = "sweep") -> list[SweepRun]:
    """Every run of set ``which``, shape by shape: the fit half and the held-out half
    interleaved (``sweep``), the fresh shapes (``fresh``), or the claims set (``claims``).
    The sweep's and the fresh set's shapes take combos ``i`` and ``i + 3`` by their index."""
    check_choice("set", which, SETS)
    if which == "claims":
        problems = CLAIMS_PROBLEMS
    else:
        shapes = ([s for pair in zip(FIT_SHAPES, HELDOUT_SHAPES) for s in pair]
                  if which == "sweep" else FRESH_SHAPES)
        problems = [(shape, (i % len(COMBOS), (i + 3) % len(COMBOS)))
                    for i, shape in enumerate(shapes)]
    out = []
    for shape, combos in problems:
        for j in combos:
            config, dtype, hint = COMBOS[j]
            for persistent, orders in ((False, ORDER_SET), (True, PERSISTENT_SET)):
                for name, params in orders:
                    out.append(SweepRun(*shape, config, dtype, name,
                                        json.dumps(params, sort_keys=True), persistent, hint))
    return out


def sweep_order(name: str, tiles_m: int, tiles_n: int, params: dict) -> np.ndarray:
    """The order of a run: :func:`swizzlekit.cta.order`, or ``random`` (a permutation of the
    row-major tiles by ``numpy.random.default_rng(seed)``)."""
    from swizzlekit.cta import order

    if name == "random":
        rng = np.random.default_rng(params.get("seed", 0))
        return order("row", tiles_m, tiles_n)[rng.permutation(tiles_m * tiles_n)]
    return order(name, tiles_m, tiles_n, **params)


def measured_kernels() -> dict[str, dict]:
    """The order-table kernels as compiled on the H200 for the sweep, by name
    (``table_gemm:128x128x64:fp16``): tile, element bytes, threads, registers per thread and
    shared memory, and under ``"persistent"`` the registers and shared memory of its
    persistent grid (from the committed sweep table's aligned shapes; no GPU needed). Ragged
    shapes compile other kernels (``table_gemm.resources``)."""
    from swizzlekit.data import path
    from swizzlekit.lab.records import L2SweepRow, read_csv

    out: dict = {}
    for r in read_csv(path("l2_sweep_h200.csv"), L2SweepRow):
        if any(x % 16 for x in r.shape):
            continue
        kern = out.setdefault(f"table_gemm:{r.config}:{r.dtype}", {
            "tile": r.tile, "elem_bytes": ELEM_BYTES[r.dtype], "out_bytes": OUT_BYTES[r.dtype],
            "dtype": r.dtype, "threads": r.threads})
        grid = kern.setdefault("persistent", {}) if r.persistent else kern
        grid.setdefault("regs_per_thread", r.regs_per_thread)
        grid.setdefault("smem_bytes", r.smem_bytes)
    return out


def shard(runs: list[SweepRun], spec: str) -> list[SweepRun]:
    """The runs of shard ``"I/N"`` (whole shapes, round robin)."""
    try:
        i, n = (int(x) for x in spec.split("/"))
    except ValueError:
        raise SwizzleKitError(f"--shard {spec!r}: give I/N, e.g. 0/2") from None
    if not 0 <= i < n:
        raise SwizzleKitError(f"--shard {spec!r}: need 0 <= I < N")
    shapes = list(dict.fromkeys(r.shape for r in runs))
    mine = set(shapes[i::n])
    return [r for r in runs if r.shape in mine]


# ------------------------------------------------------------------ on the GPU (children)
def row_bytes(N: int, K: int, dtype: str) -> tuple[int, int]:
    """A's and B's row pitch in bytes as the sweep lays them out (:func:`_operands`: contiguous
    A, M x K; B K x N, or K-major for fp8), for the L2 model's ``row_bytes``.

    >>> row_bytes(5000, 4000, "fp16"), row_bytes(3000, 1000, "fp8")
    ((8000, 10000), (1000, 1000))
    """
    eb = ELEM_BYTES[check_choice("dtype", dtype, tuple(ELEM_BYTES))]
    return K * eb, (K if dtype == "fp8" else N) * eb


def _operands(r: SweepRun):
    """Fresh A and B for a run (fp8's B K-major, as the kernel takes it), and C's dtype."""
    import torch

    from swizzlekit.kernels.triton.table_gemm import DTYPES
    from swizzlekit.lab.verify import random_operands

    dt = getattr(torch, DTYPES[r.dtype][1])
    a, b = random_operands(r.M, r.N, r.K, dt, "cuda", transpose_b=r.dtype == "fp8")
    return a, b, torch.float16 if r.dtype == "fp8" else dt


def _launcher(r: SweepRun, programs: int, a, b):
    """(a function that runs the GEMM into ``c``, ``c`` poisoned with NaN). ``programs``
    counts only for a persistent grid (the table records 0 for the others)."""
    import torch

    from swizzlekit.kernels.triton.table_gemm import order_table, table_gemm, tile_config

    cfg = tile_config(r.config)
    o = sweep_order(r.order, -(-r.M // cfg.bm), -(-r.N // cfg.bn), json.loads(r.params))
    table = order_table(o, "cuda")
    c = torch.full((r.M, r.N), float("nan"), device="cuda",
                   dtype=torch.float16 if r.dtype == "fp8" else a.dtype)
    return (lambda: table_gemm(a, b, table, out=c, config=r.config, persistent=r.persistent,
                               programs=programs if r.persistent else None)), c


def _by_problem(runs: list[SweepRun]):
    """Runs grouped by (shape, config, element type), each group with fresh operands."""
    import itertools

    import torch

    for _, group in itertools.groupby(runs, key=lambda r: (r.shape, r.config, r.dtype)):
        group = list(group)
        torch.manual_seed(len(group) + sum(group[0].shape))
        yield group, _operands(group[0])


def checked_launch(r: SweepRun, a, b, ref) -> tuple:
    """(the run's launch, its fields: programs, the compiled kernel's threads, registers,
    shared memory and residency, and its error against ``ref`` after one poisoned launch)."""
    import torch

    from swizzlekit.kernels.triton.table_gemm import DTYPES, default_programs, resources
    from swizzlekit.lab.verify import relative_error

    dtype = DTYPES[r.dtype][1]
    programs = default_programs(r.config, dtype, r.shape) if r.persistent else 0
    # the kernel this launch compiles (a persistent grid's: its program count's)
    res = resources(r.config, dtype, r.persistent, shape=r.shape, programs=programs or None)
    fn, c = _launcher(r, programs, a, b)
    fn()
    torch.cuda.synchronize()
    fields = {"programs": programs, "rel_err": relative_error(c, ref=ref),
              **{k: res[k] for k in ("threads", "regs_per_thread", "smem_bytes",
                                     "ctas_per_sm")}}
    return fn, fields


def _time_all(runs: list[SweepRun], out: Path) -> None:
    """Check every run against float64 (output poisoned first) and time it (L2 flushed)."""
    from swizzlekit.lab.harness import median_ms

    results = []
    for group, (a, b, _) in _by_problem(runs):
        ref = a.double() @ b.double()
        for r in group:
            fn, fields = checked_launch(r, a, b, ref)
            ms = median_ms(fn, warmup_ms=25, rep_ms=100)
            err = fields["rel_err"]
            results.append({**dataclasses.asdict(r), **fields, "ms": ms})
            print(f"{r.M}x{r.N}x{r.K} {r.config} {r.dtype} {r.order} {r.params}"
                  f"{' persistent' if r.persistent else ''}: {ms:.3f} ms, error {err:.1e}",
                  flush=True)
        del ref
    (out / "timings.json").write_text(json.dumps(results, indent=1))


def _launch_all(out: Path) -> None:
    """Launch every run once (the child ncu profiles), with the timing pass's programs."""
    import torch

    timed = json.loads((out / "timings.json").read_text())
    fields = {f.name for f in dataclasses.fields(SweepRun)}
    runs = [SweepRun(**{k: v for k, v in t.items() if k in fields}) for t in timed]
    programs = iter([t["programs"] for t in timed])
    for group, (a, b, _) in _by_problem(runs):
        for r in group:
            fn, _ = _launcher(r, next(programs), a, b)
            fn()
            torch.cuda.synchronize()


# -------------------------------------------------------------------------------- driver
def run(out: Path, shard_spec: str = "0/1", client=None, progress: bool = True,
        which: str = "sweep") -> Path:
    """Time and check, then profile, the runs of shard ``shard_spec``: one job per problem
    (a shape with one tile config and element type: 13 runs), here or on the workers of
    ``client`` (:mod:`swizzlekit.lab.cluster`). Rows stream into ``l2_sweep.csv`` as jobs
    finish, and a later call resumes where it stopped."""
    from swizzlekit.lab.cluster import Job, provenance_soon, run_jobs
    from swizzlekit.lab.records import L2SweepRow, Table

    out.mkdir(parents=True, exist_ok=True)
    table = Table(out / "l2_sweep.csv", L2SweepRow, L2SweepRow.key)
    env = provenance_soon(client)
    problems: dict = {}
    for r in shard(plan(which), shard_spec):
        if r.key() not in table:
            problems.setdefault((r.shape, r.config, r.dtype), []).append(r)
    jobs = [Job(f"{'x'.join(map(str, shape))}:{config}:{dtype}",
                "swizzlekit.lab.experiments.l2_sweep:measure", {"runs": runs},
                cost=float(np.prod(shape)) * ELEM_BYTES[dtype] * len(runs))
            for (shape, config, dtype), runs in problems.items()]
    run_jobs(jobs, lambda done: table.add(L2SweepRow(**row, gpu=done.gpu,
                                                     gpu_uuid=done.gpu_uuid)
                                          for row in done.result),
             client=client, progress=progress, label="problems", journal=out / "jobs.jsonl")
    meta = {"command": f"swizzlekit lab l2-sweep --out DIR --shard {shard_spec} --set {which}",
            "ncu_metrics": list(METRICS), "env": env.result()}
    (out / "l2_sweep.json").write_text(json.dumps(meta, indent=2) + "\n")
    return out / "l2_sweep.csv"


def measure(runs: list[SweepRun]) -> list[dict]:
    """One job: check and time ``runs`` (a child process), then profile each once under ncu
    (another), in a scratch folder; returns the :class:`~swizzlekit.lab.records.L2SweepRow`
    fields of each but where it ran."""
    import subprocess
    import tempfile

    from swizzlekit.lab import ncu

    with tempfile.TemporaryDirectory(prefix="swizzlekit-l2-") as tmp:
        scratch = Path(tmp)
        (scratch / "plan.json").write_text(json.dumps([dataclasses.asdict(r) for r in runs]))
        me = [sys.executable, "-m", "swizzlekit.lab.experiments.l2_sweep", str(scratch)]
        subprocess.run([*me, "time"], check=True)
        prof = ncu.profile([*me, "launch"], METRICS, kernel_regex="order_table_gemm",
                           extra_args=("--print-units", "base"))
        timed = json.loads((scratch / "timings.json").read_text())
    if len(prof) != len(timed):
        raise ToolError(f"ncu profiled {len(prof)} launches for {len(timed)} runs")
    return [dict(
        split=split_of((t["M"], t["N"], t["K"])), M=t["M"], N=t["N"], K=t["K"],
        config=t["config"], dtype=t["dtype"], order=t["order"], params=t["params"],
        persistent=t["persistent"], programs=t["programs"], threads=t["threads"],
        regs_per_thread=t["regs_per_thread"], smem_bytes=t["smem_bytes"],
        ctas_per_sm=t["ctas_per_sm"], l2_hit_rate_pct=p["lts__t_sector_hit_rate.pct"],
        dram_read_bytes=int(p["dram__bytes_read.sum"]),
        dram_write_bytes=int(p["dram__bytes_write.sum"]),
        lts_sectors=int(p["lts__t_sectors.sum"]),
        lts_hit_sectors=int(p["lts__t_sectors_lookup_hit.sum"]),
        tex_read_sectors=int(p["lts__t_sectors_srcunit_tex_op_read.sum"]),
        tex_read_hit_sectors=int(p["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"]),
        fabric_sectors=int(p["lts__t_sectors_srcunit_ltcfabric.sum"]),
        fabric_hit_sectors=int(p["lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum"]),
        ncu_ms=p["gpu__time_duration.sum"] / 1e6, ms=t["ms"], rel_err=t["rel_err"])
        for t, p in zip(timed, prof)]


if __name__ == "__main__":      # the children: "time" (check and time), "launch" (under ncu)
    _out, _mode = Path(sys.argv[1]), sys.argv[2]
    if _mode == "launch":
        _launch_all(_out)
    else:
        _fields = {f.name for f in dataclasses.fields(SweepRun)}
        _time_all([SweepRun(**{k: v for k, v in d.items() if k in _fields})
                   for d in json.loads((_out / "plan.json").read_text())], _out)
