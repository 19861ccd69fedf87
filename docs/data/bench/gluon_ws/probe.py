"""Probe: a warp-specialized persistent GEMM written in Gluon (Triton 3.6's tile-level
dialect), bf16 on Hopper: does splitting the loads from the tensor-core work close the gap
to cuBLAS where ``matmul``'s software-pipelined K loop trails it (whole waves at about 63% of
peak against cuBLAS's 72% at 1163x4096x4096; few-column outputs; docs/benchmarks.md)?

One program per SM walks its tiles in grouped order. Two partitions share a ring of
``STAGES`` shared-memory stages, each with a "ready" and an "empty" mbarrier::

    loader  (1 warp)      wait empty[i] -> expect ready[i] -> TMA A and B tiles into stage i
    compute (num_warps)   wait ready[i] -> wgmma (async) -> wait for the one before -> arrive
                          empty[i - 1]; after a tile's last step: bf16 into C's staging tile,
                          TMA store (the loader runs on into the next tile meanwhile)

Each config is checked against float64 into a NaN-poisoned C, then timed with cuBLAS and
``matmul`` in 5 interleaved, rotated replicates (do_bench medians, L2 flushed). One JSON line
a shape. ``compile`` compiles every config for sm_90 without a GPU and prints ptxas's
registers and spills.

    python3 docs/data/bench/gluon_ws/probe.py OUT.jsonl MxNxK ...     (on a GPU)
    python3 docs/data/bench/gluon_ws/probe.py compile                  (anywhere)
"""
import json
import sys

import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier,
                                                              tma, warpgroup_mma,
                                                              warpgroup_mma_wait)

#: (BLOCK_M, BLOCK_N, BLOCK_K, STAGES, compute warps, maxnreg)
CONFIGS = [(128, 256, 64, 3, 8, 168), (128, 128, 64, 4, 8, 168), (128, 128, 64, 5, 4, 232),
           (128, 256, 32, 5, 8, 168)]


@gluon.jit
def _tile_of(t, tiles_m, tiles_n, GROUP: gl.constexpr):
    """Tile ``t`` in grouped order: GROUP tile rows at a time, down each column."""
    per_group = GROUP * tiles_n
    first_m = (t // per_group) * GROUP
    rows = min(tiles_m - first_m, GROUP)
    return first_m + (t % per_group) % rows, (t % per_group) // rows


@gluon.jit
def _loader(a_desc, b_desc, a_bufs, b_bufs, ready, empty, M, N, K, GROUP: gl.constexpr):
    BM: gl.constexpr = a_desc.block_type.shape[0]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    BN: gl.constexpr = b_desc.block_type.shape[1]
    STAGES: gl.constexpr = a_bufs.type.shape[0]
    tiles_m = gl.cdiv(M, BM)
    tiles_n = gl.cdiv(N, BN)
    steps = gl.cdiv(K, BK)
    it = 0
    for t in range(gl.program_id(0), tiles_m * tiles_n, gl.num_programs(0)):
        pid_m, pid_n = _tile_of(t, tiles_m, tiles_n, GROUP)
        for k in range(steps):
            i = it % STAGES
            mbarrier.wait(empty.index(i), ((it // STAGES) & 1) ^ 1)    # born free: phase 1
            bar = ready.index(i)
            mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(a_desc, [pid_m * BM, k * BK], bar, a_bufs.index(i))
            tma.async_copy_global_to_shared(b_desc, [k * BK, pid_n * BN], bar, b_bufs.index(i))
            it += 1


@gluon.constexpr_function
def _instr_n(block_n):
    n = min(256, block_n)
    while block_n % n:
        n -= 8
    return n


@gluon.jit
def _compute(c_desc, a_bufs, b_bufs, ready, empty, c_smem, M, N, K, GROUP: gl.constexpr,
             num_warps: gl.constexpr):
    BM: gl.constexpr = c_desc.block_type.shape[0]
    BN: gl.constexpr = c_desc.block_type.shape[1]
    BK: gl.constexpr = a_bufs.type.shape[2]
    STAGES: gl.constexpr = a_bufs.type.shape[0]
    layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1],
                                                     instr_shape=[16, _instr_n(BN), 16])
    tiles_m = gl.cdiv(M, BM)
    tiles_n = gl.cdiv(N, BN)
    steps = gl.cdiv(K, BK)
    it = 0
    for t in range(gl.program_id(0), tiles_m * tiles_n, gl.num_programs(0)):
        pid_m, pid_n = _tile_of(t, tiles_m, tiles_n, GROUP)
        acc = gl.zeros((BM, BN), dtype=gl.float32, layout=layout)
        for k in range(steps):
            i = it % STAGES
            mbarrier.wait(ready.index(i), (it // STAGES) & 1)
            acc = warpgroup_mma(a_bufs.index(i), b_bufs.index(i), acc, is_async=True)
            acc = warpgroup_mma_wait(num_outstanding=1, deps=(acc, ))
            # the product before this one has read its stage: give the stage back
            mbarrier.arrive(empty.index((it + STAGES - 1) % STAGES), pred=k > 0)
            it += 1
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))
        mbarrier.arrive(empty.index((it + STAGES - 1) % STAGES))
        tma.store_wait(pendings=0)               # the last tile's store has left c_smem
        c_smem.store(acc.to(c_desc.dtype))
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc, [pid_m * BM, pid_n * BN], c_smem)
    tma.store_wait(pendings=0)


@gluon.jit
def _ws_gemm(a_desc, b_desc, c_desc, M, N, K, STAGES: gl.constexpr, GROUP: gl.constexpr,
             num_warps: gl.constexpr):
    a_bufs = gl.allocate_shared_memory(a_desc.dtype, [STAGES] + a_desc.block_type.shape,
                                       a_desc.layout)
    b_bufs = gl.allocate_shared_memory(b_desc.dtype, [STAGES] + b_desc.block_type.shape,
                                       b_desc.layout)
    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(STAGES):
        mbarrier.init(ready.index(i), count=1)
        mbarrier.init(empty.index(i), count=1)
    gl.warp_specialize([
        (_compute, (c_desc, a_bufs, b_bufs, ready, empty, c_smem, M, N, K, GROUP, num_warps)),
        (_loader, (a_desc, b_desc, a_bufs, b_bufs, ready, empty, M, N, K, GROUP)),
    ], [1], [40])


def _layouts(bm, bn, bk):
    return (gl.NVMMASharedLayout.get_default_for([bm, bk], gl.bfloat16),
            gl.NVMMASharedLayout.get_default_for([bk, bn], gl.bfloat16),
            gl.NVMMASharedLayout.get_default_for([bm, bn], gl.bfloat16))


def ws_gemm(a, b, c, cfg, sms):
    """``c = a @ b`` (bf16, row-major) by the warp-specialized kernel under ``cfg``."""
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    bm, bn, bk, stages, warps, maxnreg = cfg
    al, bl, cl = _layouts(bm, bn, bk)
    M, K = a.shape
    N = b.shape[1]
    descs = (TensorDescriptor.from_tensor(a, [bm, bk], al),
             TensorDescriptor.from_tensor(b, [bk, bn], bl),
             TensorDescriptor.from_tensor(c, [bm, bn], cl))
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    _ws_gemm[(min(sms, tiles),)](*descs, M, N, K, stages, 8, num_warps=warps, maxnreg=maxnreg)
    return c


def compile_all():
    """Every config compiled for sm_90 (no GPU needed): ptxas's registers and spills."""
    import os
    import re
    import subprocess
    import tempfile

    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource

    ptxas = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas")
    for cfg in CONFIGS:
        bm, bn, bk, stages, warps, maxnreg = cfg
        al, bl, cl = _layouts(bm, bn, bk)
        sig = {"a_desc": f"tensordesc<bf16[{bm}, {bk}],{al!r}>",
               "b_desc": f"tensordesc<bf16[{bk}, {bn}],{bl!r}>",
               "c_desc": f"tensordesc<bf16[{bm}, {bn}],{cl!r}>",
               "M": "i32", "N": "i32", "K": "i32", "STAGES": "constexpr", "GROUP": "constexpr",
               "num_warps": "constexpr"}
        src = GluonASTSource(_ws_gemm, sig, {"STAGES": stages, "GROUP": 8, "num_warps": warps})
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                           options={"num_warps": warps, "maxnreg": maxnreg})
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
            f.write(k.asm["ptx"])
        out = subprocess.run([ptxas, "-arch=sm_90a", "-v", f.name, "-o", os.devnull],
                             capture_output=True, text=True).stderr
        regs = re.search(r"Used (\d+) registers", out)
        spill = re.search(r"(\d+) bytes spill stores", out)
        print(cfg, "shared", k.metadata.shared, "regs", regs and regs.group(1), "spill stores",
              spill and spill.group(1), flush=True)


def main(out_path, shapes):
    import torch

    from swizzlekit.kernels import matmul
    from swizzlekit.lab.harness import checked_medians
    from swizzlekit.lab.verify import error_of

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    with open(out_path, "a") as f:
        for shape in shapes:
            M, N, K = (int(v) for v in shape.split("x"))
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                    "matmul": lambda out=c: matmul(a, b, out=out)}
            for cfg in CONFIGS:
                runs["ws {}x{}x{}/s{}/w{}".format(*cfg[:5])] = (
                    lambda out=c, cfg=cfg: ws_gemm(a, b, out, cfg, sms))
            got = checked_medians(runs, lambda fn: error_of(fn, a, b), warmup_ms=10, rep_ms=40)
            row = {"shape": [M, N, K], **got, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            ms = got["ms"]
            print(f"{shape}: " + "  ".join(
                f"{k} {v * 1e3:.1f} ({ms['cublas'] / v:.3f})" for k, v in
                sorted(ms.items(), key=lambda kv: kv[1]))
                + (f"  BAD {got['bad']}" if got["bad"] else ""), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["compile"]:
        compile_all()
    else:
        main(sys.argv[1], sys.argv[2:])
