"""Every public function answers misuse at the door: a :class:`SwizzleKitError` whose message
is one line of at most 300 characters, never a raw Python error, a hang, or a silent answer.

The public surface is what the packages export and the README uses: ``swizzlekit.smem``,
``swizzlekit.cta`` (with ``cta.l2.simulate`` and ``cta.rank``), ``swizzlekit.gpus``,
``swizzlekit.kernels`` and ``kernels.triton.explain.autotune_plan``. Each function comes with one
valid call and the kind of each argument; every argument is then given, in turn, the bad values
of its kind (wrong types, NaN, out of range, empty, too large), and the valid value as numpy
scalars, which must give the same answer as the Python value. Runs on the base install (no torch,
no Triton) as on the full one: ``matmul`` and ``scaled_matmul`` only where torch is there.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest

from swizzlekit import cta, gpus, kernels, smem
from swizzlekit.cta import l2
from swizzlekit.cta import rank as cta_rank
from swizzlekit.cta import timing
from swizzlekit import compare_time, data
from swizzlekit.errors import MESSAGE_LIMIT, SwizzleKitError
from swizzlekit.kernels.triton.explain import autotune_plan
from swizzlekit.kernels.triton import (choose, copies, matmul_configs, scaled_configs, splits,
                                       waves)
from swizzlekit.smem import exhaustive, families, gf2, permuted, rows, rowxor, screen, swizzle
from swizzlekit.smem.specs import parse_layout
from swizzlekit.smem.solver import universal_bound

NAN, INF = float("nan"), float("inf")
#: Seconds one refused call may take (a refusal must not compute first).
BOUND_S = 5.0

# ------------------------------------------------------------------ the bad values, by kind
_NOT_INT = ["3", 2.5, NAN, INF, None, True, [3], (3,), b"3", 3 + 0j]
BAD = {
    "count": _NOT_INT + [0, -1, 2**70],          # a positive integer (sizes, counts)
    "natural": _NOT_INT + [-1, 2**70],           # an integer >= 0
    "name": [None, 3, 2.5, "", "nope", ["row"], b"row"],   # one of a registry's names
    "names": [None, 3, "row", [None], [3], [""], ["nope"], [["row"]]],  # a list of names
    "bool": ["yes", 2, None, NAN],
    "pair": [None, 3, "8x8", (8,), (8, 8, 8), ("8", 8), (8.5, 8), (NAN, 8), (-1, 8), [None, 8]],
    "triple": [None, 3, "128x128x64", (128, 128), (128, 128, 64, 1), (0, 128, 64),
               (128.0, 128, 64), (NAN, 128, 64), (-128, 128, 64)],
    "order": [None, 3, "row", [[0, 0], [0, 1]], np.zeros((0, 2), dtype=int),
              np.array([[0, 0], [0, 0]]), np.array([[0.5, 0], [1, 1]]),
              np.array([[-1, 0], [0, 1]]), np.array([[NAN, 0], [0, 1]])],
    "offsets": [None, 3, "0 4", [], [None] * 33, [4 * i for i in range(33)], ["0"], [0.5],
                [NAN], [-4], [2**40 + 4 * i for i in range(32)], [[0]]],
    "layout": [None, 3, "row-major", np.arange(4)],
    "gpu": [None, 3, "", "b300", ["h200"]],
    "gpu_or_preset": [None, 3, "", "b300"],
    "gpu_or_none": [3, "", "b300", ["h200"], "a100"],   # None: this process's card; Hopper
    "device_name": [None, 3, b"NVIDIA H100", ["NVIDIA H100"]],
    "ranked": [None, 3, [], [None], [{}], "row"],
    "byte_counts": [None, 3, [], "12", b"12", [NAN], [INF], [-1], [[1, 2]], [2**70], ["x"]],
    "params": [None, 3, "group=8", {"group": "x"}, {"nope": 1}, {3: 1}],
    "swizzle_bits": _NOT_INT + [-1, 64, 1000],
    "bases": [None, 3, "1,2", (0,), (1, 1), (1.5, 2), (NAN,), (-1, 2), (2**70,)],
    "wave": [None, "0", 2.5, NAN, -1, [[0.5]], np.array([-1, 0]), np.array([0.5])],
    "masks": [None, 3, (), (8,), (0, -1), (0, 1.5), (NAN,), "01", (2**70,)],
    "fraction": [None, "0.3", NAN, INF, -0.1, 1.5, True, [0.3]],
    "parts": [None, 3, (), ("row",), (smem.RowMajor(2, 4), smem.RowMajor(2, 8)), "row"],
    "matrix": [None, 3, "01", [[2]], [[0.5]], np.zeros((2, 2, 2), dtype=np.uint8), [[-1]],
               np.array([["a"]]), np.zeros((63, 63), dtype=np.uint8), [[True, 2]], [[NAN]]],
    "vectors": [None, 3, "12", b"12", [None], [1.5], [NAN], [-1], [2**70], [True], [[1]]],
}
_NUMPY = (np.int64, np.int32, np.int16)


@dataclass
class Fn:
    """One public function: how to call it, one valid call, and each argument's kind."""
    name: str
    call: Callable
    valid: dict
    kinds: dict
    needs: tuple = ()                                       # modules it needs installed
    skip: dict = field(default_factory=dict)                # arg -> bad values it may take


def _order(tm=4, tn=4):
    return cta.order("row", tm, tn)


def _layout():
    return smem.Swizzled(8, 8, smem.Swizzle(3, 0, 3))


FUNCTIONS = [
    # ------------------------------------------------------------------------ swizzlekit.smem
    Fn("solve", smem.solve, dict(rows=8, cols=8, elem_bytes=16, accesses=["row", "col"]),
       dict(rows="count", cols="count", elem_bytes="count", accesses="names")),
    Fn("solve read/write", smem.solve, dict(rows=8, cols=8, elem_bytes=16, accesses=[],
                                           read="ld.v4:row", write="st.v4:row"),
       dict(read="name", write="name"), skip={"read": [None], "write": [None]}),
    Fn("solve max_pad", smem.solve, dict(rows=8, cols=8, elem_bytes=16, accesses=["col"],
                                         max_pad=2), dict(max_pad="natural"),
       skip={"max_pad": [None]}),
    Fn("analyze", smem.analyze, dict(layout=_layout(), accesses=["row"], elem_bytes=16),
       dict(layout="layout", accesses="names", elem_bytes="count")),
    Fn("parse_access", smem.parse_access, dict(spec="block:4x2"), dict(spec="name")),
    Fn("parse_layout", parse_layout, dict(spec="swizzle:3,0,3", rows=8, cols=8, elem_bytes=16),
       dict(spec="name", rows="count", cols="count", elem_bytes="count")),
    Fn("ldmatrix", smem.ldmatrix, dict(x=4, op="ldmatrix", origin=(0, 0)),
       dict(x="count", op="name", origin="pair"), skip={"origin": [(8.5, 8)]}),
    Fn("thread_block", smem.thread_block,
       dict(name="t", op="ld", width=16, elem_bytes=4, block=(4, 8), warp=0, origin=(0, 0)),
       dict(op="name", width="count", elem_bytes="count", block="pair", warp="natural",
            origin="pair")),
    Fn("wavefronts", smem.wavefronts, dict(offsets=[16 * i for i in range(32)], width=16,
                                           op="ld"),
       dict(offsets="offsets", width="count", op="name")),
    Fn("bank_conflicts", smem.bank_conflicts, dict(offsets=[4 * i for i in range(32)], width=4),
       dict(offsets="offsets", width="count")),
    Fn("phases", smem.phases, dict(offsets=[4 * i for i in range(32)], width=4, op="ld"),
       dict(offsets="offsets", width="count", op="name")),
    Fn("set_wavefronts", smem.set_wavefronts, dict(byte_addresses=[4 * i for i in range(32)],
                                                   width=4),
       dict(byte_addresses="offsets", width="count"),
       skip={"byte_addresses": [[], [4 * i for i in range(33)]]}),
    Fn("BankGeometry", smem.BankGeometry, dict(banks=32, bank_bytes=4),
       dict(banks="count", bank_bytes="count")),
    Fn("case", smem.case, dict(name=smem.CASES[0].name), dict(name="name")),
    Fn("cuda_function", smem.cuda_function, dict(layout=_layout(), name="smem_offset"),
       dict(layout="layout", name="name"), skip={"name": ["nope"]}),
    Fn("cute_type", smem.cute_type, dict(layout=_layout()), dict(layout="layout")),
    Fn("triton_expr", smem.triton_expr, dict(layout=_layout(), r="r", c="c"),
       dict(layout="layout", r="name", c="name"), skip={"r": ["nope"], "c": ["nope"]}),
    Fn("Swizzle", smem.Swizzle, dict(b=3, m=0, s=3),
       dict(b="swizzle_bits", m="swizzle_bits", s="swizzle_bits"),
       skip={"b": [0], "m": [0], "s": [0]}),
    Fn("LinearLayout", smem.LinearLayout, dict(bases=(1, 2, 4)), dict(bases="bases")),
    Fn("RowMajor", smem.RowMajor, dict(rows=8, cols=8, pad=1),
       dict(rows="count", cols="count", pad="natural")),
    Fn("Swizzled", smem.Swizzled, dict(rows=8, cols=8, functor=smem.Swizzle(3, 0, 3)),
       dict(rows="count", cols="count", functor="layout")),
    Fn("XorCols", smem.XorCols, dict(rows=8, cols=8, bits=3),
       dict(rows="count", cols="count", bits="natural")),
    Fn("TritonShared", smem.TritonShared, dict(rows=8, cols=8, vec=1, per_phase=1, max_phase=8),
       dict(rows="count", cols="count", vec="count", per_phase="count", max_phase="count")),
    Fn("TmaSwizzle", smem.TmaSwizzle, dict(rows=8, cols=64, mode=128, elem_bytes=2),
       dict(rows="count", cols="count", mode="count", elem_bytes="count")),
    Fn("RowXor", smem.RowXor, dict(rows=8, cols=8, masks=(0, 1, 2, 3), transposed=True,
                                   gather=(2, 3)),
       dict(rows="count", cols="count", masks="masks", transposed="bool", gather="pair")),
    Fn("Interleaved", smem.Interleaved, dict(inner=smem.RowMajor(8, 9), k=2),
       dict(inner="layout", k="count")),
    Fn("Permuted", smem.Permuted, dict(rows=2, cols=3, table=(0, 2, 4, 1, 3, 5)),
       dict(rows="count", cols="count", table="masks")),
    Fn("universal_bound", universal_bound, dict(idx=np.array([[0, 1, 2]]), elem_bytes=2, keep=2),
       dict(elem_bytes="count", keep="count")),
    # ----------------------------------------- swizzlekit.smem's algebra and search helpers
    Fn("gf2.identity", gf2.identity, dict(n=4), dict(n="natural")),
    Fn("gf2.from_columns", gf2.from_columns, dict(images=[1, 2], n_out=2),
       dict(images="vectors", n_out="natural")),
    Fn("gf2.from_function", gf2.from_function, dict(f=lambda x: x, n_in=3),
       dict(n_in="natural")),
    Fn("gf2.columns", gf2.columns, dict(m=np.eye(2, dtype=np.uint8)), dict(m="matrix")),
    Fn("gf2.apply", gf2.apply, dict(m=np.eye(2, dtype=np.uint8), x=3),
       dict(m="matrix", x="natural"), skip={"x": [[3], (3,)]}),    # arrays of offsets: fine
    Fn("gf2.compose", gf2.compose, dict(a=np.eye(2, dtype=np.uint8),
                                        b=np.eye(2, dtype=np.uint8)),
       dict(a="matrix", b="matrix")),
    Fn("gf2.rank", gf2.rank, dict(m=np.eye(2, dtype=np.uint8)), dict(m="matrix")),
    Fn("gf2.row_reduce", gf2.row_reduce, dict(m=np.eye(2, dtype=np.uint8)), dict(m="matrix")),
    Fn("gf2.inverse", gf2.inverse, dict(m=np.eye(2, dtype=np.uint8)), dict(m="matrix")),
    Fn("gf2.is_invertible", gf2.is_invertible, dict(m=np.eye(2, dtype=np.uint8)),
       dict(m="matrix")),
    Fn("gf2.nullspace", gf2.nullspace, dict(m=np.eye(2, dtype=np.uint8)), dict(m="matrix")),
    Fn("gf2.inverse_images", gf2.inverse_images, dict(images=[1, 3], n=2),
       dict(images="vectors", n="natural")),
    Fn("gf2.span", gf2.span, dict(vectors=[1, 2]), dict(vectors="vectors")),
    Fn("is_pow2", swizzle.is_pow2, dict(n=64), dict(n="natural"),
       skip={"n": [-1, 2**70]}),                   # answered: not, and yes, powers of two
    Fn("log2", swizzle.log2, dict(n=64), dict(n="count"), skip={"n": [2**70]}),
    Fn("valid_ks", rows.valid_ks, dict(rows=10), dict(rows="count")),
    Fn("tma_layouts", screen.tma_layouts, dict(rows=8, cols=64, elem_bytes=2),
       dict(rows="count", cols="count", elem_bytes="count")),
    Fn("xor_cols_layouts", screen.xor_cols_layouts, dict(rows=8, cols=64, elem_bytes=2),
       dict(rows="count", cols="count", elem_bytes="count")),
    Fn("row_xor_evals", families.row_xor_evals, dict(rows=64, cols=32),
       dict(rows="count", cols="count")),
    Fn("bit_kinds", exhaustive.bit_kinds, dict(n=12, elem_bytes=2, keep=2),
       dict(n="natural", elem_bytes="count", keep="count")),
    Fn("pair_count", exhaustive.pair_count, dict(m=4, a=1, c=1),
       dict(m="natural", a="natural", c="natural")),
    Fn("linear_basis", rowxor.linear_basis, dict(masks=(0, 4, 2, 6, 1, 5, 3, 7)),
       dict(masks="masks"), skip={"masks": [(8,)]}),      # one row: answered (not linear)
    Fn("units", permuted.units, dict(rows=2, cols=12, keep=8),
       dict(rows="count", cols="count", keep="count")),
    Fn("split_start", permuted.split_start, dict(rows=2, cols=12, keep=8),
       dict(rows="count", cols="count", keep="count")),
    Fn("keeps_vectors", screen.keeps_vectors, dict(layout=smem.RowMajor(8, 8, pad=4), keep=4),
       dict(layout="layout", keep="count")),
    # ------------------------------------------------------------------------- swizzlekit.cta
    Fn("order", cta.order, dict(name="grouped", tiles_m=9, tiles_n=9, group=3),
       dict(name="name", tiles_m="count", tiles_n="count", group="count")),
    Fn("check_order", cta.check_order, dict(order_=_order(), tiles_m=4, tiles_n=4),
       dict(order_="order", tiles_m="count", tiles_n="count")),
    Fn("persistent_schedule", cta.persistent_schedule, dict(order_=_order(), num_ctas=3),
       dict(order_="order", num_ctas="count")),
    Fn("wave_tile_loads", cta.wave_tile_loads, dict(order_=_order(9, 9), tiles_k=9,
                                                    concurrent=3),
       dict(order_="order", tiles_k="count", concurrent="count")),
    Fn("seed001_get_swizzle_idx", cta.seed001_get_swizzle_idx,
       dict(tm=8, tn=8, width=2, fixed=True),
       dict(tm="count", tn="count", width="count", fixed="bool")),
    Fn("simulate", l2.simulate, dict(M=1024, N=1024, K=512, order=_order(8, 8),
                                     tile=(128, 128, 64), elem_bytes=2, gpu="h200",
                                     ctas_per_sm=1),
       dict(M="count", N="count", K="count", order="order", tile="triple", elem_bytes="count",
            gpu="gpu", ctas_per_sm="count")),
    Fn("simulate options", l2.simulate, dict(M=1024, N=1024, K=512, order=_order(8, 8),
                                             persistent=True, programs=64, concurrent=66,
                                             out_bytes=2, row_bytes=(1024, 2048),
                                             dispatch="coin"),
       dict(persistent="bool", programs="count", concurrent="count", out_bytes="count",
            row_bytes="pair", dispatch="name"),
       skip={"row_bytes": [None, (8.5, 8)], "programs": [None], "concurrent": [None],
             "out_bytes": [None]}),
    Fn("settings", l2.settings, dict(gpu="h100-sxm", ctas_per_sm=2, l2_bytes=2**25,
                                     partitions=2, ways=8),
       dict(gpu="gpu", ctas_per_sm="count", l2_bytes="count", partitions="count",
            ways="natural"),
       skip={"l2_bytes": [None], "partitions": [None], "ways": [None]}),
    Fn("row_classes", l2.row_classes, dict(row_bytes=(8000, 10000), K=4000, N=5000,
                                           elem_bytes=2),
       dict(row_bytes="pair", K="count", N="count", elem_bytes="count"),
       skip={"row_bytes": [None, (8.5, 8)]}),
    Fn("lanes", l2.lanes, dict(ctas=264, partitions=2, programs=132, dispatch="coin",
                               gpu="h200", ctas_per_sm=2),
       dict(ctas="count", partitions="count", programs="count", dispatch="name", gpu="gpu",
            ctas_per_sm="count"), skip={"programs": [None]}),
    Fn("in_step", l2.in_step, dict(wave=np.arange(3), ctas_per_sm=2),
       dict(wave="wave", ctas_per_sm="count")),
    Fn("run_order", l2.run_order, dict(slots=12, programs=4, resident=4, spread=0.3),
       dict(slots="count", programs="count", resident="count", spread="fraction")),
    Fn("check_problem", l2.check_problem, dict(M=1024, N=1024, K=512, order=None,
                                               tile=(128, 128, 64), elem_bytes=2),
       dict(M="count", N="count", K="count", tile="triple", elem_bytes="count")),
    Fn("AccessSpec", smem.AccessSpec, dict(kind="block", rows=4, cols=8, vec=2, row_stride=1,
                                           col_stride=2),
       dict(kind="name", rows="count", cols="count", vec="count", row_stride="count",
            col_stride="count")),
    Fn("Stacked", smem.Stacked, dict(parts=(smem.RowMajor(2, 4), smem.RowMajor(1, 4))),
       dict(parts="parts")),
    Fn("rank", cta_rank.rank, dict(M=1024, N=1024, K=512, tile=(128, 128, 64), elem_bytes=2,
                                   gpu="h200", ctas_per_sm=1),
       dict(M="count", N="count", K="count", tile="triple", elem_bytes="count", gpu="gpu",
            ctas_per_sm="count")),
    Fn("verdict", cta_rank.verdict, dict(ranked=None, gpu="h200"),
       dict(ranked="ranked", gpu="gpu")),
    Fn("kernel_time", timing.kernel_time, dict(M=4096, N=4096, K=4096, elem_bytes=2,
                                               per_wave_dram_read_bytes=[10**8, 10**7],
                                               dram_write_bytes=2**25, gpu="h100-sxm"),
       dict(M="count", N="count", K="count", elem_bytes="count",
            per_wave_dram_read_bytes="byte_counts", dram_write_bytes="natural", gpu="gpu")),
    Fn("label", cta_rank.label, dict(name="grouped", params={"group": 8}),
       dict(name="name", params="params")),
    # ------------------------------------------------------------------------ swizzlekit.gpus
    Fn("gpu", gpus.gpu, dict(name="h200"), dict(name="gpu")),
    Fn("residency", gpus.residency, dict(g="h200", threads=256, regs_per_thread=128,
                                         smem_bytes=96 * 1024),
       dict(g="gpu_or_preset", threads="count", regs_per_thread="natural",
            smem_bytes="natural")),
    Fn("residency_limits", gpus.residency_limits, dict(g="h100-sxm", threads=128,
                                                       regs_per_thread=96,
                                                       smem_bytes=48 * 1024),
       dict(g="gpu_or_preset", threads="count", regs_per_thread="natural",
            smem_bytes="natural")),
    Fn("preset_of", gpus.preset_of, dict(device_name="NVIDIA H100 80GB HBM3"),
       dict(device_name="device_name")),
    # --------------------------------------------------------------------- swizzlekit.kernels
    Fn("kernel", kernels.kernel, dict(name="triton"), dict(name="name")),
    Fn("autotune_plan", autotune_plan, dict(M=512, N=4096, K=4096, precision="bf16",
                                            kernel="auto", persistent=False, gpu="h100-sxm"),
       dict(M="count", N="count", K="count", precision="name", kernel="name",
            persistent="bool", gpu="gpu_or_none")),
    Fn("tiles_of", waves.tiles_of, dict(M=640, N=4096, block_m=128, block_n=160),
       dict(M="count", N="count", block_m="count", block_n="count"),
       skip={"M": [2**70], "N": [2**70], "block_m": [2**70], "block_n": [2**70]}),  # exact ints
    Fn("wide_route", waves.wide_route, dict(elem_bytes=2, persistent=False, tma=True,
                                            b_kmajor=False, c_by_tma=True),
       dict(elem_bytes="count", persistent="bool", tma="bool", b_kmajor="bool",
            c_by_tma="bool"), skip={"elem_bytes": [2**70]}),       # answered: not 16-bit
    Fn("tail_route", waves.tail_route, dict(elem_bytes=2, persistent=False, tma=True,
                                            slots_are_tiles=True),
       dict(elem_bytes="count", persistent="bool", tma="bool", slots_are_tiles="bool"),
       skip={"elem_bytes": [2**70]}),
    Fn("auto_split", splits.auto_split, dict(M=64, N=4096, K=4096, persistent=False),
       dict(M="count", N="count", K="count", persistent="bool"),
       skip={"M": [2**70], "N": [2**70], "K": [2**70]}),             # answered: no split
    Fn("workspace_elements", splits.workspace_elements, dict(split=2, M=300, N=520),
       dict(split="count", M="count", N="count"),
       skip={"split": [2**70], "M": [2**70], "N": [2**70]}),
    Fn("tma_by_size", matmul_configs.tma_by_size, dict(elem=2, M=64, N=4096, K=4096,
                                                       whole_sectors=True),
       dict(elem="count", M="count", N="count", K="count", whole_sectors="bool"),
       skip={"M": [2**70], "N": [2**70], "K": [2**70]}),
    Fn("fp8 tma_by_size", scaled_configs.tma_by_size, dict(M=512, N=4096, K=4096,
                                                          persistent=False),
       dict(M="count", N="count", K="count", persistent="bool"),
       skip={"M": [2**70], "N": [2**70], "K": [2**70]}),
    Fn("family", choose.family, dict(elem_bytes=2, precision="tf32"),
       dict(elem_bytes="count", precision="name")),
    Fn("data.path", data.path, dict(name="order_times_h100.csv"), dict(name="name")),
    Fn("compare_time.runs", compare_time.runs, dict(card="h100", part="heldout"),
       dict(card="name", part="name")),
    Fn("pitch_copy", copies.pitch_copy, dict(M=3000, N=5000, K=4000, row_bytes=10000,
                                             elem_bytes=2, gpu_name="h100-sxm"),
       dict(M="count", N="count", K="count", row_bytes="count", elem_bytes="count",
            gpu_name="gpu_or_none")),
]

# verdict's valid call ranks a real problem
FUNCTIONS[[f.name for f in FUNCTIONS].index("verdict")].valid["ranked"] = cta_rank.rank(
    1024, 1024, 512)


def _cases():
    for fn in FUNCTIONS:
        for arg, kind in fn.kinds.items():
            for i, bad in enumerate(BAD[kind]):
                if any(bad is s or (type(bad) is type(s) and _same(bad, s))
                       for s in fn.skip.get(arg, [])):
                    continue
                yield pytest.param(fn, arg, bad, id=f"{fn.name}-{arg}-{i}:{_short(bad)}")


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def _answer(fn: Fn, kwargs: dict):
    start = time.perf_counter()
    try:
        result = fn.call(**kwargs)
    except SwizzleKitError as e:
        seconds = time.perf_counter() - start
        text = str(e)
        assert "\n" not in text and 0 < len(text) <= MESSAGE_LIMIT, text
        return "refused", text, seconds
    return "answered", result, time.perf_counter() - start


@pytest.mark.parametrize("fn, arg, bad", list(_cases()))
def test_misuse_is_refused_at_the_door(fn, arg, bad):
    kwargs = {**fn.valid, arg: bad}
    verdict, detail, seconds = _answer(fn, kwargs)
    assert verdict == "refused", f"{fn.name}({arg}={bad!r}) was accepted: {detail!r}"
    assert seconds < BOUND_S, f"{fn.name}({arg}={bad!r}) took {seconds:.1f} s to refuse"


def _equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return a == b


def _int_args():
    for fn in FUNCTIONS:
        for arg, kind in fn.kinds.items():
            if kind in ("count", "natural", "swizzle_bits"):
                yield pytest.param(fn, arg, id=f"{fn.name}-{arg}")


@pytest.mark.parametrize("fn, arg", list(_int_args()))
def test_numpy_integers_are_integers(fn, arg):
    want = fn.call(**fn.valid)
    for np_type in _NUMPY:
        if not np.iinfo(np_type).min <= fn.valid[arg] <= np.iinfo(np_type).max:
            continue
        got = fn.call(**{**fn.valid, arg: np_type(fn.valid[arg])})
        assert _equal(repr(got), repr(want)) or _equal(got, want), (fn.name, arg, np_type)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=[f.name for f in FUNCTIONS])
def test_the_valid_call_is_answered(fn):
    """The baseline each misuse departs from is itself a good call (else a refusal proves
    nothing)."""
    verdict, detail, _ = _answer(fn, dict(fn.valid))
    assert verdict == "answered", detail


def _finite(obj) -> bool:
    if isinstance(obj, float):
        return math.isfinite(obj) and obj >= 0
    if isinstance(obj, dict):
        return all(_finite(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return all(_finite(v) for v in obj)
    return True


def test_model_answers_are_finite_and_non_negative():
    pred = l2.simulate(1024, 1024, 512, _order(8, 8))
    assert _finite(pred.to_dict())
    assert _finite(cta_rank.rank(1024, 1024, 512))
    assert _finite(autotune_plan(512, 4096, 4096).to_dict())


# ------------------------------------------------------------------ the GEMMs (need torch)
def test_matmul_refuses_what_is_not_a_tensor():
    torch = pytest.importorskip("torch")
    for a, b, kw in [(np.ones((4, 4)), np.ones((4, 4)), {}),
                     (np.ones((4, 4)), np.ones((4, 4)), {"order": "zigzag"}),
                     ([[1.0]], [[1.0]], {}), (None, None, {}),
                     (torch.ones(4, 4), np.ones((4, 4)), {}),
                     (torch.ones(4), torch.ones(4), {}),
                     (torch.ones(4, 4), torch.ones(5, 4), {}),
                     (torch.ones(4, 4), torch.ones(4, 4), {"order": "zigzag"}),
                     (torch.ones(4, 4), torch.ones(4, 4), {"order": 3}),
                     (torch.ones(4, 4), torch.ones(4, 4), {"precision": "fp64"}),
                     (torch.ones(4, 4), torch.ones(4, 4), {"split_k": 0}),
                     (torch.ones(4, 4), torch.ones(4, 4), {"split_k": 2.5})]:
        with pytest.raises(SwizzleKitError) as e:
            kernels.matmul(a, b, **kw)
        assert "\n" not in str(e.value) and len(str(e.value)) <= MESSAGE_LIMIT
