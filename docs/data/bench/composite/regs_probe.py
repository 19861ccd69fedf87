"""Probe: a composite tile's narrow product with A from registers.

A composite tile ``BM x (BN1 + BN2)`` runs two products on one A box each K step. With A in
shared memory (wgmma's SS form, as `kernels/triton/wide_kernel.py` runs) each product reads
the whole A box again, so the narrow one (128 x 32) reads 16 KB of A for 4 KB of B: per
output element the tile reads more shared memory than a plain 128 x 128 one. With A in
registers (the RS form) A leaves shared memory once per K step for both products.

``REGS`` says how A reaches the products: 0 both from shared memory; 1 the narrow one through
registers (an identity ``inline_asm_elementwise`` puts the box in registers); 2 both. Each
compiled kernel's PTX is searched for its wgmma forms (``rs``: A operand in registers).
bf16, TMA, grouped(8); beside them ``matmul``'s default and cuBLAS. Each checked against
float64 into a NaN-poisoned C, then timed in 5 interleaved, rotated replicates (do_bench
medians, L2 flushed). One JSON line a shape.

    python3 docs/data/bench/composite/regs_probe.py OUT.jsonl     (on a GPU)
"""
import json
import re
import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from swizzlekit.kernels import matmul
from swizzlekit.lab.harness import checked_medians


@triton.jit
def _in_registers(x):
    """``x`` unchanged, by way of registers (two 16-bit values a 32-bit move)."""
    return tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=x.dtype,
                                     is_pure=True, pack=2)


@triton.jit
def _kernel(a_desc, b1_desc, b2_desc, c1_desc, c2_desc, M, N, K, BM: tl.constexpr,
            BN1: tl.constexpr, BN2: tl.constexpr, BK: tl.constexpr, REGS: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN1 + BN2)
    pid = tl.program_id(0)
    per_group = 8 * tiles_n
    first_m = (pid // per_group) * 8
    rows = tl.minimum(tiles_m - first_m, 8)
    pid_m = first_m + (pid % per_group) % rows
    pid_n = (pid % per_group) // rows
    m0 = pid_m * BM
    n0 = pid_n * (BN1 + BN2)
    acc1 = tl.zeros((BM, BN1), dtype=tl.float32)
    if BN2 > 0:
        acc2 = tl.zeros((BM, BN2), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([m0, k * BK])
        ar = a
        if REGS > 0:
            ar = _in_registers(a)
        if REGS == 2:
            acc1 = tl.dot(ar, b1_desc.load([k * BK, n0]), acc1)
        else:
            acc1 = tl.dot(a, b1_desc.load([k * BK, n0]), acc1)
        if BN2 > 0:
            acc2 = tl.dot(ar, b2_desc.load([k * BK, n0 + BN1]), acc2)
    c1_desc.store([m0, n0], acc1.to(c1_desc.dtype))
    if BN2 > 0:
        c2_desc.store([m0, n0 + BN1], acc2.to(c2_desc.dtype))


def wgmma_forms(compiled) -> dict:
    """How many wgmma instructions of each shape and form the PTX holds."""
    forms = {}
    for m in re.finditer(r"wgmma\.mma_async\.sync\.aligned\.(m\d+n\d+k\d+)[^{]*\{[^}]*\},\s*(\{)?",
                         compiled.asm["ptx"]):
        key = f"{m.group(1)} {'rs' if m.group(2) else 'ss'}"
        forms[key] = forms.get(key, 0) + 1
    return forms


def composite(a, b, c, bm, bn1, bn2, bk, stages, warps, regs, info):
    M, K = a.shape
    N = b.shape[1]

    def d(t, block):
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block)

    descs = [d(a, [bm, bk]), d(b, [bk, bn1]), d(b, [bk, bn2 or bn1]), d(c, [bm, bn1]),
             d(c, [bm, bn2 or bn1])]
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn1 + bn2),)

    def run(out=c):
        k = _kernel[grid](*descs, M, N, K, BM=bm, BN1=bn1, BN2=bn2, BK=bk, REGS=regs,
                          num_stages=stages, num_warps=warps)
        info.setdefault("forms", wgmma_forms(k))
        info.setdefault("regs_per_thread", k.n_regs)
        info.setdefault("spills", k.n_spills)
        return out
    return run


#: shape -> tiles (BM, BN1, BN2, BK, stages, warps); each runs with REGS 0, 1 and 2 (a plain
#: tile, BN2 = 0, with 0 and 2)
SHAPES = {
    (600, 4096, 14336): [(128, 128, 32, 64, 4, 8)],
    (640, 4096, 14336): [(128, 128, 32, 64, 4, 8)],
    (768, 4096, 14336): [(128, 128, 64, 64, 4, 8)],
    (600, 14336, 4096): [(128, 128, 64, 64, 4, 8)],
    (1024, 4096, 14336): [(128, 256, 0, 64, 3, 8), (128, 128, 0, 64, 4, 8)],
}

with open(sys.argv[1], "a") as f:
    for (M, N, K), tiles in SHAPES.items():
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        ref = a.double() @ b.double()
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        runs = {"cublas": lambda out=c: torch.matmul(a, b, out=out),
                "default": lambda out=c: matmul(a, b, out=out)}
        infos = {}
        for bm, bn1, bn2, bk, st, w in tiles:
            for regs in ((0, 1, 2) if bn2 else (0, 2)):
                label = (f"{bm}x({bn1}+{bn2})" if bn2 else f"{bm}x{bn1}") + \
                    f"x{bk}/s{st}/w{w} regs={regs}"
                infos[label] = {}
                runs[label] = composite(a, b, c, bm, bn1, bn2, bk, st, w, regs, infos[label])

        def error(fn):
            c.fill_(float("nan"))
            got = fn()
            return float((got.double() - ref).norm() / ref.norm())
        res = checked_medians(runs, error, 1e-2, 5, warmup_ms=10, rep_ms=40)
        row = {"shape": [M, N, K], **res, "kernels": infos,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        cub = res["ms"].get("cublas")
        print(f"{M}x{N}x{K}: " + "  ".join(
            f"{k} {v * 1e3:.1f}us ({cub / v:.3f})" for k, v in sorted(res["ms"].items(),
                                                                      key=lambda x: x[1]))
            + (f"  BAD {res['bad']}" if res["bad"] else ""), flush=True)
        for k, v in infos.items():
            print(f"  {k}: {v}", flush=True)
