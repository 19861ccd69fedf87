"""The CUDA device-function orders equal the numpy orders: compiled as host C++ here, and on
the GPU where there is one."""

import shutil
import subprocess

import numpy as np
import pytest

from conftest import HAS_GPU
from swizzlekit.cta import order
from swizzlekit.cta.cuda import cuda_source, header_path

GRIDS = [(1, 1), (1, 7), (7, 1), (5, 7), (8, 8), (13, 17), (16, 4)]
CALLS = [("row", {}, "sk_row(p, tm, tn)"), ("col", {}, "sk_col(p, tm, tn)"),
         ("grouped", {"group": 3}, "sk_grouped(p, tm, tn, 3)"),
         ("grouped", {"group": 3, "along": "n"}, "sk_grouped_n(p, tm, tn, 3)"),
         ("grouped_persistent", {"group": 4}, "sk_grouped_persistent(p, tm, tn, 4)"),
         ("strip", {"width": 3}, "sk_strip(p, tm, tn, 3)"),
         ("strip_snake", {"width": 3}, "sk_strip_snake(p, tm, tn, 3)"),
         ("snake", {}, "sk_snake(p, tm, tn)")]


def _expected(name, params, tm, tn):
    return order(name, tm, tn, **params).tolist()


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs a C++ compiler (g++)")
def test_device_functions_compiled_as_host_code(tmp_path):
    prog = ["#include <algorithm>", "#include <cstdio>", "using std::min; using std::max;",
            "#define __host__", "#define __device__", "#define __forceinline__ inline",
            f'#include "{header_path()}"', "int main() {"]
    expect = []
    for tm, tn in GRIDS:
        for name, params, call in CALLS:
            prog.append(f"{{ int tm = {tm}, tn = {tn}; for (int p = 0; p < tm * tn; ++p) {{ "
                        f"sk_tile t = {call}; printf(\"%d %d \", t.m, t.n); }} printf(\"\\n\"); }}")
            expect.append(_expected(name, params, tm, tn))
        for log_tile in (0, 1, 2):     # CUTLASS: its own grid, out-of-range CTAs dropped
            prog.append(f"{{ int tm = {tm}, tn = {tn}; for (int p = 0; p < sk_cutlass_ctas(tm, tn, "
                        f"{log_tile}); ++p) {{ sk_tile t = sk_cutlass(p, tm, tn, {log_tile}); "
                        f"if (t.n < tn) printf(\"%d %d \", t.m, t.n); }} printf(\"\\n\"); }}")
            expect.append(_expected("cutlass", {"log_tile": log_tile}, tm, tn))
        for layers in (2, 3):
            prog.append(f"{{ int tm = {tm}, tn = {tn}; for (int p = 0; p < sk_zlayer_ctas(tm, tn, "
                        f"{layers}); ++p) {{ sk_tile t = sk_zlayer(p, tm, tn, {layers}); "
                        f"if (t.n < tn) printf(\"%d %d \", t.m, t.n); }} printf(\"\\n\"); }}")
            expect.append(_expected("zlayer", {"layers": layers}, tm, tn))
    for log2 in (0, 1, 2, 3, 4):
        for fn, name in (("sk_morton", "morton"), ("sk_hilbert", "hilbert")):
            prog.append(f"{{ for (int p = 0; p < {1 << 2 * log2}; ++p) {{ sk_tile t = "
                        f"{fn}(p, {log2}); printf(\"%d %d \", t.m, t.n); }} printf(\"\\n\"); }}")
            expect.append(_expected(name, {}, 1 << log2, 1 << log2))
    prog.append("return 0; }")
    (tmp_path / "t.cpp").write_text("\n".join(prog))
    subprocess.run(["g++", "-O1", "-o", str(tmp_path / "t"), str(tmp_path / "t.cpp")], check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert len(lines) == len(expect)
    for line, exp in zip(lines, expect):
        got = np.array([int(x) for x in line.split()]).reshape(-1, 2).tolist()
        assert got == exp


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_GPU, reason="needs an NVIDIA GPU")
def test_device_functions_on_the_gpu():
    import torch

    from swizzlekit.kernels.cuda.launch import function, i32, launch, ptr
    from swizzlekit.kernels.cuda.nvrtc import compile_cuda

    src = cuda_source() + """
extern "C" __global__ void emit(int* out, int tm, int tn, int kind) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= tm * tn) return;
  sk_tile t = kind == 0 ? sk_grouped(p, tm, tn, 3) : kind == 1 ? sk_strip(p, tm, tn, 3)
            : kind == 2 ? sk_strip_snake(p, tm, tn, 3) : sk_snake(p, tm, tn);
  out[2 * p] = t.m; out[2 * p + 1] = t.n;
}"""
    major, minor = torch.cuda.get_device_capability()
    kern = function(compile_cuda(src, ["emit"], arch=f"sm_{major}{minor}"), "emit")
    for tm, tn in GRIDS:
        for kind, (name, params) in enumerate([("grouped", {"group": 3}), ("strip", {"width": 3}),
                                               ("strip_snake", {"width": 3}), ("snake", {})]):
            out = torch.full((2 * tm * tn,), -1, dtype=torch.int32, device="cuda")
            launch(kern, (-(-tm * tn // 128),), (128,), [ptr(out), i32(tm), i32(tn), i32(kind)])
            torch.cuda.synchronize()
            assert out.cpu().reshape(-1, 2).tolist() == _expected(name, params, tm, tn)
