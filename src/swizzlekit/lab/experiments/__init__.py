"""The lab's experiments: each one measures on this machine's GPU and writes its tables.

Each entry of :data:`EXPERIMENTS` is ``name -> (module, what it measures)``; the module's
``run(out)`` writes its files under ``out`` and returns the main one. ``swizzlekit lab NAME
--out DIR`` runs one (``swizzlekit lab list`` lists them).

>>> sorted(EXPERIMENTS)
['banks', 'ceilings', 'dispatch', 'l2', 'l2-sweep', 'order-times', 'overhead', 'peak', 'sanitize', 'tf32-layout', 'tiles', 'tune']
"""

from __future__ import annotations

import importlib
from pathlib import Path

from swizzlekit.errors import check_choice

__all__ = ["EXPERIMENTS", "SWEEPS", "run"]

EXPERIMENTS: dict[str, tuple[str, str]] = {
    "banks": ("banks", "shared-memory wavefronts of one warp instruction per pattern, under ncu "
                       "(the bank model's table)"),
    "l2": ("l2", "L2 hit rate, DRAM bytes and time of GEMMs under CTA orders, under ncu "
                 "(the L2 model's table)"),
    "l2-sweep": ("l2_sweep", "the L2 model's fit and held-out tables: shapes x tile configs x "
                             "residencies x element types x orders, under ncu (--shard I/N)"),
    "order-times": ("order_times", "every order of the L2 sweep's problems timed in 5 "
                                   "interleaved replicates (the time model's table)"),
    "dispatch": ("dispatch", "which SM each CTA of the order-table GEMM runs on and when, and "
                             "which L2 partition is near each SM (the L2 model's dispatch)"),
    "overhead": ("overhead", "host time against GPU time of one GEMM call on small problems"),
    "ceilings": ("ceilings", "cuBLAS per precision and device copy bandwidth"),
    "peak": ("peak", "FFMA and mma.sync issue rates"),
    "tune": ("tune", "template parameters of the CUDA rungs, checked and timed"),
    "tiles": ("tiles", "every tile config the GEMM's autotuner tries, timed per shape and "
                       "precision (the config model's table)"),
    "tf32-layout": ("tf32_layout", "TF32 GEMM with B row-major (pointer loads, swapped, copied) and K-major"),
    "sanitize": ("sanitize", "every CUDA rung and Triton GEMM path under compute-sanitizer "
                             "memcheck, racecheck and synccheck"),
}


#: The experiments made of many independent runs, which ``--cluster`` spreads over GPUs
#: (:mod:`swizzlekit.lab.cluster`); their ``run`` takes ``client=``.
SWEEPS = ("l2-sweep", "banks", "tune", "tiles")


def run(name: str, out: Path, **options) -> Path:
    """Run experiment ``name``, writing under ``out``; returns its main file. ``options``
    go to the experiment (``shard_spec="0/2"`` for l2-sweep, ``client=`` for a sweep)."""
    check_choice("experiment", name, EXPERIMENTS)
    module = importlib.import_module(f"swizzlekit.lab.experiments.{EXPERIMENTS[name][0]}")
    return module.run(Path(out), **options)
