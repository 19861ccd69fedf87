"""Typed rows for every table the lab writes, and the one CSV/JSON codec they share.

A measured row is a frozen dataclass, never a dict of strings: ``row.ok`` is a bool and
``row.ms`` a float. :func:`write_csv` / :func:`read_csv` round-trip any of them, converting
each column by the field's type, so a committed table reads back exactly as it was written.

>>> import io
>>> row = BenchRow("square", 64, 64, 64, "bf16", "triton", "grouped", '{"group": 8}', 0.01,
...                3.2, 0.95, 1e-3, True, True)
>>> buf = io.StringIO()
>>> write_csv(buf, [row])
>>> read_csv(io.StringIO(buf.getvalue()), BenchRow) == [row]
True
>>> row.params_dict
{'group': 8}
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

from swizzlekit.errors import SwizzleKitError

__all__ = ["BenchRow", "NcuRow", "L2Row", "L2SweepRow", "OrderTimeRow", "TuneRow", "TileRow",
           "Table", "write_csv", "read_csv", "to_dicts", "write_json"]

R = TypeVar("R")


class _GemmRun:
    """What every row of one GEMM run derives from its ``M``, ``N``, ``K`` and ``params``
    fields (methods only: no fields, so the dataclasses keep their own field order)."""

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.M, self.N, self.K)

    @property
    def params_dict(self) -> dict:
        """The order's parameters, from their sorted JSON."""
        return json.loads(self.params) if self.params else {}


class _SweepRun(_GemmRun):
    """A row of one run of the order-table GEMM in the L2 sweep's plan: its tile, and the
    key of its :class:`~swizzlekit.lab.experiments.l2_sweep.SweepRun`."""

    @property
    def tile(self) -> tuple[int, int, int]:
        return tuple(int(x) for x in self.config.split("x"))

    def key(self) -> tuple:
        """The run this row measured (a resumed table skips it)."""
        return (self.M, self.N, self.K, self.config, self.dtype, self.order, self.params,
                self.persistent)


class _BenchRun(_GemmRun):
    """A row of ``swizzlekit bench``: keyed like :meth:`swizzlekit.lab.bench.Run.key`."""

    def key(self) -> tuple:
        """The run this row measured (a resumed table skips it)."""
        return (self.suite, self.M, self.N, self.K, self.precision, self.kernel, self.order,
                self.params)


@dataclass(frozen=True)
class BenchRow(_BenchRun):
    """One timed GEMM: ``swizzlekit bench``'s results.csv."""
    suite: str
    M: int
    N: int
    K: int
    precision: str
    kernel: str
    order: str
    params: str                  # the order's parameters as sorted JSON
    ms: float
    tflops: float
    vs_cublas: float
    rel_err: float
    ok: bool
    flushed: bool
    gpu: str = ""                # where it ran (name, UUID): empty in tables older than that
    gpu_uuid: str = ""
    host_us: float = 0.0         # host time per call, us (harness.host_us); 0: not measured
    plan: str = ""               # how the call ran (bench.plan_label); "": not described


@dataclass(frozen=True)
class NcuRow(_BenchRun):
    """Nsight Compute on one call of a benchmarked run: ``bench --ncu``'s ncu.csv."""
    suite: str
    M: int
    N: int
    K: int
    precision: str
    kernel: str
    order: str
    params: str
    kernels: int                 # launches in the profiled call (cuBLAS may launch several)
    l2_hit_rate_pct: float
    dram_read_bytes: int
    dram_write_bytes: int
    smem_bank_conflicts_ld: int
    smem_bank_conflicts_st: int
    ncu_ms: float
    gpu: str = ""
    gpu_uuid: str = ""


@dataclass(frozen=True)
class L2Row(_GemmRun):
    """One GEMM launch under an order, profiled (hit rate, DRAM) and timed: the L2 tables."""
    kernel: str
    M: int
    N: int
    K: int
    order: str
    params: str
    l2_hit_rate_pct: float
    dram_read_bytes: int
    dram_write_bytes: int
    ncu_ms: float
    ms: float
    tflops: float
    rel_err: float


@dataclass(frozen=True)
class L2SweepRow(_SweepRun):
    """One launch of the order-table GEMM in the L2 sweep: the kernel as compiled (registers,
    shared memory, residency), Nsight Compute's L2 and DRAM counters, and its time."""
    split: str                   # "fit" or "heldout" (by shape)
    M: int
    N: int
    K: int
    config: str                  # tile config name, e.g. "128x128x64"
    dtype: str                   # fp16, bf16, fp32, fp8
    order: str
    params: str
    persistent: bool
    programs: int                # persistent programs launched (SMs x residency)
    threads: int
    regs_per_thread: int
    smem_bytes: int
    ctas_per_sm: int             # swizzlekit.gpus.residency of the compiled kernel
    l2_hit_rate_pct: float
    dram_read_bytes: int
    dram_write_bytes: int
    lts_sectors: int
    lts_hit_sectors: int
    tex_read_sectors: int        # near lookups from the SMs
    tex_read_hit_sectors: int
    fabric_sectors: int          # lookups arriving over the fabric from the other partition
    fabric_hit_sectors: int
    ncu_ms: float
    ms: float                    # do_bench median, L2 flushed
    rel_err: float
    gpu: str = ""
    gpu_uuid: str = ""


@dataclass(frozen=True)
class OrderTimeRow(_SweepRun):
    """One run of the order-table GEMM timed in replicates (``swizzlekit lab order-times``):
    the orders of a problem timed in turn, ``replicates`` times over, each turn in the order
    of :func:`swizzlekit.turns.turn_order` (the H200's tables of 2026-11-25: rotated by one
    each time); ``ms`` is the median of the replicates, each a do_bench median with the L2
    flushed (the H100's tables pool three cards' passes). The time model's table."""
    split: str                   # "fit", "heldout" or "fresh" (by shape, as the L2 sweep)
    M: int
    N: int
    K: int
    config: str
    dtype: str
    order: str
    params: str
    persistent: bool
    programs: int
    threads: int
    regs_per_thread: int
    smem_bytes: int
    ctas_per_sm: int
    ms: float                    # median of the replicates
    ms_min: float
    ms_max: float
    replicates: str              # every replicate's ms, ";"-separated, in the order taken
    rel_err: float
    gpu: str = ""
    gpu_uuid: str = ""

    @property
    def times_ms(self) -> list[float]:
        return [float(x) for x in self.replicates.split(";") if x]


@dataclass(frozen=True)
class TuneRow:
    """One variant of a CUDA rung at one size: ``swizzlekit lab tune``'s tune.csv."""
    rung: str
    variant: str
    size: int
    registers: int
    spills: int
    ms: float
    tflops: float
    vs_cublas: float
    cublas: str                  # "fp32" or "tf32": the cuBLAS it is held to
    rel_err: float
    ok: bool
    gpu: str = ""
    gpu_uuid: str = ""

    def key(self) -> tuple:
        return (self.rung, self.variant, self.size)


@dataclass(frozen=True)
class TileRow(_GemmRun):
    """One tile config of the Triton GEMM timed by its autotuner at one shape and precision:
    ``swizzlekit lab tiles``' tiles.csv (the config model's table)."""
    split: str                   # "fit", "heldout" or "fresh"
    M: int
    N: int
    K: int
    precision: str
    kernel: str                  # the autotuned kernel: pointer, tma, fp8_pointer, fp8_tma
    config: str                  # BMxBNxBK/sS/wW[/swap]
    ms: float                    # the autotuner's median GPU time (timing.gpu_time), L2 flushed
    chosen: bool                 # the autotuner's pick (the least ms of the call)
    rel_err: float               # the call's error against float64 (its chosen config)
    ok: bool
    gpu: str = ""
    gpu_uuid: str = ""

    def key(self) -> tuple:
        return (self.M, self.N, self.K, self.precision, self.kernel, self.config)


def _convert(text: str, kind):
    if kind is bool:
        if text not in ("True", "False"):
            raise ValueError(f"{text!r} is not True or False")
        return text == "True"
    if kind is int:
        return int(float(text)) if text not in ("", "nan") else 0
    if kind is float:
        return float(text) if text != "" else math.nan
    return text


def _types(cls) -> dict[str, type]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def read_csv(source: str | Path | IO[str], cls: type[R]) -> list[R]:
    """Rows of ``cls`` from a CSV written by :func:`write_csv` (extra columns are ignored)."""
    text = source.read() if hasattr(source, "read") else Path(source).read_text()
    types = _types(cls)
    optional = {f.name for f in dataclasses.fields(cls)
                if f.default is not dataclasses.MISSING}
    rows = list(csv.DictReader(io.StringIO(text)))
    if rows:
        missing = [name for name in types if name not in rows[0] and name not in optional]
        if missing:
            raise SwizzleKitError(f"table lacks columns {', '.join(missing)} for {cls.__name__}")
    try:
        return [cls(**{name: _convert(r[name], kind) for name, kind in types.items()
                       if name in r}) for r in rows]
    except ValueError as e:
        raise SwizzleKitError(f"a {cls.__name__} row does not parse: {e}") from None


def write_csv(target: str | Path | IO[str], rows: Sequence, append: bool = False) -> None:
    """Write dataclass rows with a header (``append`` adds rows to an existing file)."""
    if not rows:
        return
    names = [f.name for f in dataclasses.fields(rows[0])]
    own = not hasattr(target, "write")
    f = open(target, "a" if append else "w", newline="") if own else target
    try:
        w = csv.writer(f)
        if not append:
            w.writerow(names)
        for r in rows:
            w.writerow([repr(v) if isinstance(v, float) else v for v in dataclasses.astuple(r)])
    finally:
        if own:
            f.close()


class Table:
    """A CSV of ``cls`` rows that grows one result at a time and resumes where it stopped.

    ``key(row)`` names a row's run; a row whose key is already in the table is not written
    again (a sweep that is run twice, or a result that arrives twice, adds it once). A table
    written before ``cls`` gained a column is rewritten in the current form on opening.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> row = BenchRow("square", 64, 64, 64, "bf16", "triton", "", "", 0.01, 3.2, 0.95, 1e-3,
    ...                True, True)
    >>> Table(path, BenchRow, BenchRow.key).add([row, row])
    1
    >>> t = Table(path, BenchRow, BenchRow.key)
    >>> len(t.rows), t.add([row]), BenchRow.key(row) in t
    (1, 0, True)
    """

    def __init__(self, path: str | Path, cls: type, key):
        self.path, self.cls, self.key = Path(path), cls, key
        self.rows = read_csv(self.path, cls) if self.path.exists() else []
        self.keys = {key(r) for r in self.rows}
        names = [f.name for f in dataclasses.fields(cls)]
        header = self.path.read_text().partition("\n")[0] if self.path.exists() else ""
        if self.rows and header.strip().split(",") != names:
            write_csv(self.path, self.rows)

    def __contains__(self, key) -> bool:
        return key in self.keys

    def add(self, rows: Iterable) -> int:
        """Append the rows not yet in the table; returns how many were new."""
        new = []
        for r in rows:
            if self.key(r) not in self.keys:
                self.keys.add(self.key(r))
                new.append(r)
        write_csv(self.path, new, append=bool(self.rows))
        self.rows += new
        return len(new)


def to_dicts(rows: Iterable) -> list[dict]:
    """Plain dicts (for JSON and the report)."""
    return [dataclasses.asdict(r) for r in rows]


def write_json(path: Path, rows: Iterable, **meta) -> None:
    """``{**meta, "rows": [...]}`` as indented JSON."""
    Path(path).write_text(json.dumps({**meta, "rows": to_dicts(rows)}, indent=1) + "\n")
