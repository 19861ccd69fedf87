"""The order-table GEMM's alignment hints (CPU tier): ``_hints`` against its definition, and
the kernel compiled for sm_90 on the CPU (Triton's own compiler, no GPU), where a ragged K
with 16-byte rows must load as the aligned kernel does."""

import json
import os
import re
import subprocess
import sys
from collections import Counter

import pytest

triton = pytest.importorskip("triton")

from swizzlekit.kernels.triton import table_gemm as tg  # noqa: E402

NAMES = ["a_ptr", "b_ptr", "c_ptr", "order_ptr", "M", "N", "K", "stride_am", "stride_ak",
         "stride_bk", "stride_bn", "stride_cm", "stride_cn"]


def _reference(K, N, a_strides, b_strides, c_strides, elem_bytes):
    """The definition, by search: the largest power of two up to 16 bytes of elements that
    divides every value, 1 where all are multiples of 16 or a row is not contiguous."""
    if a_strides[1] != 1 or c_strides[1] != 1 or 1 not in b_strides:
        return 1, False
    kmajor = b_strides[1] != 1
    values = [K, N, a_strides[0], b_strides[1] if kmajor else b_strides[0], c_strides[0]]
    if all(v % 16 == 0 for v in values):
        return 1, False
    best = max(p for p in (1, 2, 4, 8, 16) if p <= 16 // elem_bytes
               and all(v % p == 0 for v in values))
    return (best, kmajor) if best > 1 else (1, False)


def test_hints_follow_their_definition():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=500, deadline=None)
    @given(st.integers(1, 5000), st.integers(1, 5000), st.sampled_from([1, 2, 4]),
           st.booleans(), st.integers(0, 24), st.integers(0, 24))
    def check(K, N, elem, kmajor, pad_a, pad_c):
        a = (K + pad_a, 1)
        b = (1, K) if kmajor else (N, 1)
        c = (N + pad_c, 1)
        h = tg._hints(K, N, a, b, c, elem)
        assert (h["ALIGN"], h["B_KMAJOR"]) == _reference(K, N, a, b, c, elem)
        for v in (K, N, a[0], c[0]):            # the hint is true of every value it touches
            assert v % h["ALIGN"] == 0

    check()
    # a transposed A or C, or a B with no unit stride: no hint
    assert tg._hints(3000, 7000, (1, 3000), (7000, 1), (7000, 1), 2)["ALIGN"] == 1
    assert tg._hints(3000, 7000, (3000, 1), (7000, 2), (7000, 1), 2)["ALIGN"] == 1


def _loads(shape, config="128x256x64"):
    """The global load instructions of the kernel compiled for sm_90 as a launch of ``shape``
    (fp16, contiguous operands) compiles it: Triton's divisibility-by-16 specialization of
    each argument, and the launcher's hints."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    M, N, K = shape
    cfg = tg.tile_config(config)
    values = {"M": M, "N": N, "K": K, "stride_am": K, "stride_bk": N, "stride_cm": N}
    sig = {n: "*fp16" if n.endswith("ptr") and n != "order_ptr" else
           "*i32" if n == "order_ptr" else "i32" for n in NAMES}
    const = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": cfg.bm,
             "BLOCK_N": cfg.bn, "BLOCK_K": cfg.bk,
             **tg._hints(K, N, (K, 1), (N, 1), (N, 1), 2)}
    sig.update({n: "constexpr" for n in const})
    div = ["a_ptr", "b_ptr", "c_ptr", "order_ptr"] + [n for n, v in values.items() if v % 16 == 0]
    attrs = {(NAMES.index(n),): [["tt.divisibility", 16]] for n in div}
    kernel = triton.compile(ASTSource(tg.order_table_gemm, sig, const, attrs),
                            target=GPUTarget("cuda", 90, 32),
                            options={"num_warps": cfg.warps, "num_stages": cfg.stages})
    return Counter(re.findall(r"ld\.global\.\w+|cp\.async\.c[ag]\.shared\.global",
                              kernel.asm["ptx"]))


def test_a_ragged_k_with_16_byte_rows_loads_as_the_aligned_kernel():
    """6000 x 7000 x 3000 in fp16: K and N are multiples of 8, not 16. Without the hint the
    tiles came by 2-byte ``ld.global`` (and spilled on the H200); with it, by the aligned
    kernel's 16-byte ``cp.async``. An odd K cannot be helped, and still loads by element.
    (Compiled in a child without the interpreter, which the CPU tier sets.)"""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    shapes = ["6144,7168,3072", "6000,7000,3000", "6000,7000,3001"]
    done = subprocess.run([sys.executable, __file__, *shapes], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    aligned, hinted, odd = (Counter(x) for x in json.loads(done.stdout.splitlines()[-1]))
    assert aligned["cp.async.cg.shared.global"] > 0
    assert hinted == aligned
    assert odd["ld.global.b16"] > 0 and odd["cp.async.cg.shared.global"] < hinted[
        "cp.async.cg.shared.global"]


if __name__ == "__main__":      # the child: the load counts of each shape given as M,N,K
    print(json.dumps([_loads(tuple(int(x) for x in arg.split(","))) for arg in sys.argv[1:]]))
