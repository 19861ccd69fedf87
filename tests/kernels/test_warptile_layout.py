"""cuda_warptile's shared-memory layout of A^T is the solver's, and every shared-memory
access the kernel makes to it is conflict-free lane by lane (the bank model of smem/)."""

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from swizzlekit.smem import CASES, analyze, solve
from swizzlekit.smem.access import Instruction
from swizzlekit.smem.layouts import Swizzle

SGEMM = Path(__file__).parents[2] / "src/swizzlekit/kernels/cuda/sgemm.cu"
CASE = {8: "SGEMM warp-tiled A^T tile 8x128 fp32 (transposing stores)",
        16: "SGEMM warp-tiled A^T tile 16x128 fp32 (transposing stores)"}


def _solution(bk):
    c = next(c for c in CASES if c.name == CASE[bk])
    return solve(c.rows, c.cols, c.elem_bytes, c.accesses)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs a C++ compiler (g++)")
@pytest.mark.parametrize("bk", [8, 16])
def test_kernel_swizzle_is_the_solvers_layout(tmp_path, bk):
    """swz_at<BK> from sgemm.cu, compiled as host C++, gives the solver's offsets."""
    text = SGEMM.read_text()
    fn = re.search(r"template <int BK>\n__device__ __forceinline__ int swz_at.*?\n}\n", text, re.S)
    assert fn, "swz_at not found in sgemm.cu"
    prog = ("#include <cstdio>\n#define __device__\n#define __forceinline__ inline\n"
            + fn.group(0) + f"int main() {{ for (int k = 0; k < {bk}; ++k) for (int m = 0; "
            f"m < 128; ++m) printf(\"%d \", swz_at<{bk}>(k, m)); return 0; }}\n")
    (tmp_path / "t.cpp").write_text(prog)
    subprocess.run(["g++", "-std=c++17", "-o", str(tmp_path / "t"), str(tmp_path / "t.cpp")],
                   check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True)
    got = np.array(out.stdout.split(), dtype=int).reshape(bk, 128)
    sol = _solution(bk)
    assert np.array_equal(got, sol.layout.offsets())
    assert sol.cute == {8: Swizzle(1, 4, 5), 16: Swizzle(2, 3, 6)}[bk]


def _stores(bk, warp, i, q=0):
    """Store i of float q of A by each lane: As[a_c + i][a_r + AR q] (the kernel's store())."""
    lanes = []
    for lane in range(32):
        tid = warp * 32 + lane
        a_r, a_c = tid // (bk // 4), (tid % (bk // 4)) * 4
        lanes.append((a_c + i, a_r + (256 // (bk // 4)) * q))
    return Instruction(f"store w{warp} i{i} q{q}", "st", 4, tuple(lanes))


def _reads(bk, warp, k, s):
    """The float4 read of A's sub-tile s at k: As[k][row0 + 16 s] (the kernel's main loop)."""
    return Instruction(f"read w{warp} k{k} s{s}", "ld", 16,
                       tuple((k, (warp // 2) * 32 + (lane // 8) * 4 + 16 * s) for lane in range(32)))


@pytest.mark.parametrize("bk", [8, 16])
def test_every_access_to_a_is_conflict_free(bk):
    layout = _solution(bk).layout
    accesses = [_stores(bk, w, i, q) for w in range(8) for i in range(4) for q in range(bk // 8)]
    accesses += [_reads(bk, w, k, s) for w in range(8) for k in range(bk) for s in range(2)]
    assert analyze(layout, accesses, 4).conflict_free
    # without the swizzle the stores conflict, BK/4 ways: the swizzle is doing the work
    from swizzlekit.smem.layouts import RowMajor
    plain = analyze(RowMajor(bk, 128), [_stores(bk, 0, 0)], 4)
    assert plain.reports[0].conflict_degree == bk // 4
