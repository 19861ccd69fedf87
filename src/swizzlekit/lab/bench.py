"""The GEMM benchmark: registered kernels against cuBLAS, by suite, with correctness checked.

For each (shape, precision, kernel, order): the median time over many repetitions, with L2
flushed before each (``triton.testing.do_bench``; ``warm=True`` times back to back without
flushing), TFLOP/s, the ratio to cuBLAS, and the relative error against float64 once per
shape. Results go to ``results.csv`` and ``results.json`` tagged with GPU, driver, CUDA, torch
and triton versions; a run resumes from an existing ``results.csv``; ``chart_<suite>.png``
draws TFLOP/s by size, one line per kernel. The shapes (named suites, and shapes given one
by one) are :mod:`swizzlekit.lab.suites`'s, re-exported here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from swizzlekit.errors import SwizzleKitError
from swizzlekit.lab.records import BenchRow, NcuRow, Table, write_json
from swizzlekit.lab.suites import (BENCH_MAX_MNK, MNK_SUITE, SUITES, ragged_pair_ratios,
                                   shapes_of)

__all__ = ["SUITES", "PRECISIONS", "MNK_SUITE", "BENCH_MAX_MNK", "Run", "runs", "shapes_of",
           "bench", "operands", "time_group", "plan_label", "chart", "ragged_pair_ratios",
           "profile_runs", "profile_one", "NCU_METRICS"]

#: Precision name -> (torch dtype name, matmul precision) and the error bound (docs/data/bench/JOURNAL.md).
#: fp8: e4m3 operands with one fp32 scale per tensor, B K-major, bf16 output; cuBLAS through
#: ``torch._scaled_mm`` (:func:`operands`).
PRECISIONS = {"fp16": ("float16", "tf32", 1e-2), "bf16": ("bfloat16", "tf32", 1e-2),
              "tf32": ("float32", "tf32", 1e-3), "fp32": ("float32", "ieee", 1e-5),
              "fp8": ("float8_e4m3fn", "tf32", 1e-2)}


@dataclass(frozen=True)
class Run:
    suite: str
    shape: tuple[int, int, int]
    precision: str
    kernel: str
    order: str = ""
    params: tuple = ()

    def key(self) -> tuple:
        """The run as :meth:`BenchRow.key` names it (a resumed table skips it)."""
        return (self.suite, *self.shape, self.precision, self.kernel, self.order,
                json.dumps(dict(self.params), sort_keys=True))


def runs(suites: Iterable[str], precisions: Iterable[str], kernels: Iterable[str],
         orders: Iterable[tuple[str, dict]] = (("auto", {}),), shapes: Iterable = ()) -> list[Run]:
    """Every run, cuBLAS first for each shape and precision (the ratios need it): the shapes of
    ``suites``, then ``shapes`` given one by one (:func:`shapes_of`) as suite
    :data:`MNK_SUITE`."""
    from swizzlekit.kernels import KERNELS

    suites, precisions, kernels = list(suites), list(precisions), list(kernels)
    extra = shapes_of(shapes)
    if not suites and not extra:
        raise SwizzleKitError("no shapes to run: name a suite (valid: " + ", ".join(SUITES)
                              + ") or shapes")
    for prec in precisions:
        if prec not in PRECISIONS:
            raise SwizzleKitError(f"unknown precision {prec!r}; valid: " + ", ".join(PRECISIONS))
    for name in kernels:
        spec = KERNELS.get(name)
        if spec is None:
            raise SwizzleKitError(f"unknown kernel {name!r}; valid kernels: " + ", ".join(KERNELS))
        if not set(precisions) & set(spec.dtypes):
            raise SwizzleKitError(f"kernel {name!r} runs none of the precisions asked for "
                                  f"({', '.join(precisions)}); it runs: {', '.join(spec.dtypes)}")
    out = []
    for suite in suites:
        if suite not in SUITES:
            raise SwizzleKitError(f"unknown suite {suite!r}; valid suites: " + ", ".join(SUITES))
    for suite, shape in ([(suite, shape) for suite in suites for shape in SUITES[suite]]
                         + [(MNK_SUITE, shape) for shape in extra]):
        for prec in precisions:
            for name in ["cublas"] + [k for k in kernels if k != "cublas"]:
                if name not in KERNELS:
                    raise SwizzleKitError(f"unknown kernel {name!r}; valid kernels: "
                                          + ", ".join(KERNELS))
                spec = KERNELS[name]
                if prec not in spec.dtypes or (spec.accepts and not spec.accepts(*shape, prec)):
                    continue
                for o, params in (orders if spec.takes_order else [("", {})]):
                    out.append(Run(suite, shape, prec, name, o, tuple(sorted(params.items()))))
    return out


def bench(run_list: list[Run], out_dir: Path, warm: bool = False, progress: bool = True,
          client=None) -> list[BenchRow]:
    """Run, resuming from ``out_dir/results.csv``; returns every row (old and new).

    One job per shape and precision (cuBLAS first, so every ratio is taken on one GPU), here
    or on the workers of ``client`` (:mod:`swizzlekit.lab.cluster`); rows stream into the
    table as jobs finish."""
    from swizzlekit.lab.cluster import Job, provenance_soon, run_jobs

    out_dir.mkdir(parents=True, exist_ok=True)
    table = Table(out_dir / "results.csv", BenchRow, BenchRow.key)
    env = provenance_soon(client)
    groups: dict = {}
    for run in run_list:
        if run.key() not in table:
            groups.setdefault((run.suite, run.shape, run.precision), []).append(run)
    jobs = []
    for (suite, shape, prec), group in groups.items():
        base = [r.tflops for r in table.rows if (r.suite, r.shape, r.precision, r.kernel) ==
                (suite, shape, prec, "cublas")]
        m, n, k = shape
        jobs.append(Job(f"{suite}:{m}x{n}x{k}:{prec}", "swizzlekit.lab.bench:time_group",
                        {"runs": group, "warm": warm, "base_tflops": base[0] if base else None},
                        cost=2.0 * m * n * k * len(group)))
    run_jobs(jobs, lambda done: table.add(
        BenchRow(**row, gpu=done.gpu, gpu_uuid=done.gpu_uuid) for row in done.result),
        client=client, progress=progress, label="GEMM timings", journal=out_dir / "jobs.jsonl")
    write_json(out_dir / "results.json", table.rows, env=env.result())
    return table.rows


def operands(m: int, n: int, k: int, precision: str, device="cuda", reference: bool = True):
    """Fresh operands of one precision: ``(a, b, out dtype, extra kernel arguments, float64
    reference or None)``. fp8 draws scaled e4m3 operands (B K-major) and passes their scales
    (:func:`swizzlekit.lab.verify.scaled_operands`)."""
    import torch

    from swizzlekit.lab.verify import random_operands, scaled_operands

    if precision == "fp8":
        a, b, sa, sb, ref = scaled_operands(m, n, k, device)
        return a, b, torch.bfloat16, {"scale_a": sa, "scale_b": sb}, ref if reference else None
    a, b = random_operands(m, n, k, getattr(torch, PRECISIONS[precision][0]), device)
    return a, b, a.dtype, {}, (a.double() @ b.double()) if reference else None


def _padded16(a, b):
    """fp8 A and K-major B zero-padded to sizes in multiples of 16, before any timing: cuBLAS's
    fp8 GEMM takes no others, so on ragged shapes it is timed on the padded problem (its
    copies not counted: the strictest bar)."""
    m, k = a.shape
    n = b.shape[1]
    up = lambda x: -(-x // 16) * 16  # noqa: E731
    a16 = a.new_zeros((up(m), up(k)))
    a16[:m, :k] = a
    bt16 = b.new_zeros((up(n), up(k)))
    bt16[:n, :k] = b.T
    return a16, bt16.T


def plan_label(described: dict | None) -> str:
    """A :func:`~swizzlekit.kernels.triton.matmul.describe` answer in one line: load path,
    config, order, split, then the copies ("" for None).

    >>> plan_label({"kernel": "tma", "config": "128x128x64/s4/w4", "order": "grouped", "p": 8,
    ...             "split_k": 2, "copies": "copies", "b_pitch_copy": False,
    ...             "b_kmajor_copy": False, "c_masked": True})
    'tma 128x128x64/s4/w4 grouped(8) S=2 copies C-masked'
    >>> plan_label(None)
    ''
    """
    if described is None or described == {}:
        return ""
    keys = ("kernel", "config", "order", "split_k", "copies", "b_pitch_copy", "b_kmajor_copy",
            "c_masked")
    if not isinstance(described, dict) or any(k not in described for k in keys):
        raise SwizzleKitError(f"plan_label: described must be None or what describe() returns (a "
                              f"dict with {', '.join(keys)}); got {str(described)[:60]}")
    d = described
    parts = [d["kernel"], d["config"] or "?",
             f"{d['order']}({d['p']})" if d.get("p") else d["order"] or "?",
             f"S={d['split_k']}"]
    parts += [name for name, on in ((d["copies"], bool(d["copies"])),
                                    ("B-pitched", d["b_pitch_copy"]),
                                    ("B-kmajor", d["b_kmajor_copy"]), ("C-masked", d["c_masked"]),
                                    ("C-regs", d.get("c_registers", False)),
                                    ("tail-split", d.get("tail_split", False)))
              if on]
    return " ".join(parts)


def time_group(runs: list[Run], warm: bool, base_tflops: float | None) -> list[dict]:
    """Check and time the runs of one shape and precision on this GPU (a sweep's job): fresh
    operands, outputs poisoned before each check, the float64 product as reference."""
    import dataclasses

    import torch

    from swizzlekit.kernels import KERNELS
    from swizzlekit.lab.harness import host_us, median_ms
    from swizzlekit.lab.verify import poisoned, relative_error

    m, n, k = runs[0].shape
    _, mm_precision, bound = PRECISIONS[runs[0].precision]
    torch.cuda.empty_cache()
    a, b, out_dtype, extra, ref = operands(m, n, k, runs[0].precision)
    rows = []
    for run in runs:
        spec = KERNELS[run.kernel]
        kw = dict(precision=mm_precision, **extra, **dict(run.params))
        if spec.takes_order:
            kw["order"] = run.order
        x, y = a, b
        if run.kernel == "cublas" and extra and (m % 16 or n % 16 or k % 16):
            x, y = _padded16(a, b)          # _scaled_mm takes sizes in multiples of 16 only
        c = poisoned(x.shape[0], y.shape[1], out_dtype, "cuda")
        spec.run(x, y, out=c, **kw)                      # also compiles / autotunes
        torch.cuda.synchronize()
        err = relative_error(c[:m, :n], ref=ref)
        ms = median_ms(lambda: spec.run(x, y, out=c, **kw), flush=not warm)
        host = host_us(lambda: spec.run(x, y, out=c, **kw))  # near ms*1e3: launch-bound
        plan = plan_label(spec.describe(x, y, out=c, **kw)) if spec.describe else ""
        tflops = 2 * m * n * k / (ms * 1e-3) / 1e12
        if run.kernel == "cublas":
            base_tflops = tflops
        row = BenchRow(run.suite, m, n, k, run.precision, run.kernel, run.order,
                       run.key()[-1], round(ms, 5), round(tflops, 2),
                       round(tflops / base_tflops, 4) if base_tflops else 1.0,
                       float(f"{err:.3e}"), bool(err == err and err < bound), not warm,
                       host_us=round(host, 1), plan=plan)
        rows.append({f.name: getattr(row, f.name) for f in dataclasses.fields(BenchRow)
                     if f.name not in ("gpu", "gpu_uuid")})
    del ref
    return rows


def chart(rows: list[BenchRow], suite: str, precision: str, path: Path) -> Path:
    """TFLOP/s by size for one suite and precision (see :func:`swizzlekit.plots.benchmark_chart`)."""
    from swizzlekit.plots import benchmark_chart

    return benchmark_chart(rows, suite, precision, path)


# ------------------------------------------------------------------------------------ --ncu
#: Summed over every kernel of the profiled call (cuBLAS may launch more than one).
NCU_METRICS = ("lts__t_sectors.sum", "lts__t_sectors_lookup_hit.sum", "dram__bytes_read.sum",
               "dram__bytes_write.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "gpu__time_duration.sum")


def _one(spec_json: str) -> None:
    """Child process under ncu: compile and tune first, then profile exactly one call."""
    import torch

    from swizzlekit.kernels import KERNELS

    run = json.loads(spec_json)
    m, n, k = run["shape"]
    a, b, out_dtype, extra, _ = operands(m, n, k, run["precision"], reference=False)
    c = torch.empty(m, n, device="cuda", dtype=out_dtype)
    spec = KERNELS[run["kernel"]]
    kw = dict(precision=PRECISIONS[run["precision"]][1], **extra, **run["params"])
    if spec.takes_order:
        kw["order"] = run["order"]
    spec.run(a, b, out=c, **kw)
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    spec.run(a, b, out=c, **kw)
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()


def profile_runs(run_list: list[Run], out_dir: Path, client=None,
                 progress: bool = False) -> list[NcuRow]:
    """Nsight Compute on one call of each run: L2 hit rate, DRAM bytes, bank conflicts.

    One job per run (here, or on the workers of ``client``), streamed into ``ncu.csv``, which
    a later call resumes; returns the rows of ``run_list`` in its order."""
    from swizzlekit.lab.cluster import Job, run_jobs

    out_dir.mkdir(parents=True, exist_ok=True)
    table = Table(out_dir / "ncu.csv", NcuRow, NcuRow.key)
    jobs = [Job(":".join(map(str, run.key())), "swizzlekit.lab.bench:profile_one",
                {"run": run}, cost=2.0 * run.shape[0] * run.shape[1] * run.shape[2])
            for run in dict.fromkeys(run_list) if run.key() not in table]
    run_jobs(jobs, lambda done: table.add([NcuRow(**done.result, gpu=done.gpu,
                                                  gpu_uuid=done.gpu_uuid)]),
             client=client, progress=progress, label="ncu profiles",
             journal=out_dir / "jobs.jsonl")
    by_key = {r.key(): r for r in table.rows}
    return [by_key[run.key()] for run in run_list]


def profile_one(run: Run) -> dict:
    """One call of ``run`` under Nsight Compute in a child process (a sweep's job)."""
    import sys

    from swizzlekit.lab import ncu

    spec = json.dumps({"shape": run.shape, "precision": run.precision, "kernel": run.kernel,
                       "order": run.order, "params": dict(run.params)})
    prof = ncu.profile([sys.executable, "-m", "swizzlekit.lab.bench", "--one", spec],
                       NCU_METRICS, extra_args=("--profile-from-start", "off",
                                                "--print-units", "base"))
    total = {mtr: sum(float(p[mtr]) for p in prof) for mtr in NCU_METRICS}
    return dict(suite=run.suite, M=run.shape[0], N=run.shape[1], K=run.shape[2],
                precision=run.precision, kernel=run.kernel, order=run.order,
                params=run.key()[-1], kernels=len(prof),
                l2_hit_rate_pct=round(100 * total["lts__t_sectors_lookup_hit.sum"]
                                      / max(total["lts__t_sectors.sum"], 1), 2),
                dram_read_bytes=int(total["dram__bytes_read.sum"]),
                dram_write_bytes=int(total["dram__bytes_write.sum"]),
                smem_bank_conflicts_ld=int(total[NCU_METRICS[4]]),
                smem_bank_conflicts_st=int(total[NCU_METRICS[5]]),
                ncu_ms=total["gpu__time_duration.sum"] / 1e6)


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        _one(sys.argv[2])
