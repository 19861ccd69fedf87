"""The TMA GEMM kernels' variants that keep a large fp32 tile live across a split's sum
(split K at S = 2 and 3, the tail split; 16-bit and fp8) compile for sm_90 with no registers
spilled. Before split K's partial sums went to whole blocks (8eb230f), 11 of the first 15
spilled under Triton 3.6 and 3.9 alike: every 16-bit split variant in 128x256, 256x128 or
4-warp 128x128 tiles (128-712 bytes a thread) and every fp8 one; the H100 ran the 16-bit
ones with local-memory stalls (docs/data/bench/narrow_split/).

Each variant is compiled with ``triton.compile`` for sm_90, specialized as the JIT
specializes a call whose pointers and sizes are multiples of 16, and read back with
``cuobjdump -res-usage`` (ptxas puts spills on the stack). Nothing is launched, so no GPU is
needed; the compile runs in a child process, since the interpreter tier replaces Triton's
JIT."""

import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

#: (kernel, BLOCK_M, BLOCK_N, BLOCK_K, stages, warps, SPLIT_K, TAIL): "bf16" the 16-bit TMA
#: kernel, "fp8" the fp8 one (per-tensor scales)
VARIANTS = [("bf16", 128, 256, 64, 3, 8, 1, False), ("bf16", 128, 256, 64, 3, 8, 2, False),
            ("bf16", 128, 256, 64, 3, 8, 3, False), ("bf16", 256, 128, 64, 3, 8, 2, False),
            ("bf16", 256, 128, 64, 3, 8, 3, False), ("bf16", 128, 256, 32, 4, 8, 3, False),
            ("bf16", 128, 128, 64, 4, 4, 2, False), ("bf16", 128, 128, 64, 4, 4, 3, False),
            ("bf16", 128, 128, 64, 5, 8, 3, False), ("bf16", 128, 256, 64, 3, 8, 1, True),
            ("bf16", 128, 128, 64, 4, 8, 1, True), ("fp8", 128, 256, 128, 3, 8, 2, False),
            ("fp8", 128, 256, 128, 3, 8, 3, False), ("fp8", 256, 128, 128, 3, 8, 3, False),
            ("fp8", 128, 128, 128, 4, 4, 3, False), ("fp8", 128, 256, 128, 3, 8, 1, True),
            ("fp8", 128, 128, 128, 4, 8, 1, True)]


def _kernel(kind, bm, bn, bk, split, tail):
    """The JIT function, its constants and its argument types for one variant."""
    from swizzlekit.kernels.triton.plans import _layers

    if kind == "fp8":
        from swizzlekit.kernels.triton.scaled_kernel import _scaled_tma_kernel as kernel
        consts = dict(ORDER="grouped", P=8, PERSISTENT=False, ROWWISE=False, OUT_BYTES=2,
                      SPLIT_K=split, TAIL=tail, C_PTR=0, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                      FLAT=False)
        types = {"a_desc": f"tensordesc<fp8e4nv[{bm}, {bk}]>",
                 "b_desc": f"tensordesc<fp8e4nv[{bn}, {bk}]>", "sa_ptr": "*fp32",
                 "sb_ptr": "*fp32"}
    else:
        from swizzlekit.kernels.triton.tma_kernel import _matmul_tma_kernel as kernel
        consts = dict(ORDER="grouped", P=8, PERSISTENT=False, PRECISION="tf32",
                      B_KMAJOR=False, SPLIT_K=split, TAIL=tail, C_PTR=0, BLOCK_M=bm,
                      BLOCK_N=bn, BLOCK_K=bk, SWAP_AB=False, ONE_TILE=False, FLAT=False,
                      ELEM_BYTES=2)
        types = {"a_desc": f"tensordesc<bf16[{bm}, {bk}]>",
                 "b_desc": f"tensordesc<bf16[{bk}, {bn}]>"}
    types.update({"c_desc": f"tensordesc<bf16[{bm}, {bn}]>", "ws_ptr": "*fp32",
                  "counts_ptr": "*i32"})
    jit, _ = _layers(kernel)
    return jit, consts, {n: "constexpr" if n in consts else types.get(n, "i32")
                         for n in jit.arg_names}


def _resources(kind, bm, bn, bk, stages, warps, split, tail) -> tuple[int, int]:
    """(registers, stack and local bytes a thread) of one variant, C by TMA."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    jit, consts, sig = _kernel(kind, bm, bn, bk, split, tail)
    attrs = {(i,): [["tt.divisibility", 16]] for i, n in enumerate(jit.arg_names)
             if sig[n].startswith("*") or n in ("M", "N", "K", "stride_cm", "NUM_PROGRAMS")}
    kernel = triton.compile(ASTSource(jit, sig, consts, attrs), target=GPUTarget("cuda", 90, 32),
                            options={"num_warps": warps, "num_stages": stages})
    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    with tempfile.TemporaryDirectory() as d:
        cubin = os.path.join(d, "k.cubin")
        with open(cubin, "wb") as f:
            f.write(kernel.asm["cubin"])
        out = subprocess.run([tool, "-res-usage", cubin], capture_output=True, text=True,
                             timeout=60).stdout
    found = re.search(r"REG:(\d+) STACK:(\d+).*?LOCAL:(\d+)", out)
    if found is None:
        raise RuntimeError(f"no resource usage in cuobjdump's output: {out[-300:]!r}")
    return int(found.group(1)), int(found.group(2)) + int(found.group(3))


@pytest.fixture(scope="module")
def resources():
    """Every variant's (registers, spilled bytes), compiled in a child process with Triton's
    JIT (not the interpreter this tier may run under)."""
    pytest.importorskip("triton")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    done = subprocess.run([sys.executable, __file__], capture_output=True, text=True, env=env,
                          timeout=900)
    if done.returncode != 0 and "No module named 'triton.backends.nvidia" in done.stderr:
        pytest.skip("this Triton has no NVIDIA backend")
    assert done.returncode == 0, done.stderr[-2000:]
    return {tuple(v): tuple(r) for v, r in json.loads(done.stdout.strip().splitlines()[-1])}


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS,
                         ids=lambda v: "{} {}x{}x{}/s{}/w{} split {} tail {}".format(*v))
def test_no_variant_spills(resources, variant):
    regs, spilled = resources[variant]
    assert spilled == 0, f"{variant}: {regs} registers, {spilled} bytes spilled a thread"
    assert 0 < regs <= 255


if __name__ == "__main__":          # the child: one JSON line of [variant, resources]
    print(json.dumps([[list(v), list(_resources(*v))] for v in VARIANTS]))
