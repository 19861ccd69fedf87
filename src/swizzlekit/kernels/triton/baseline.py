"""Kernel: the baseline a Triton user starts from: a grouped-order GEMM with pointer loads,
autotuned over a handful of configs, in the shape of Triton's matmul tutorial (03). Issue 13's
second bar beside cuBLAS: swizzlekit's GEMM must never fall below it.

Reads top to bottom: configs, kernel, launcher, validation. Written here; the tutorial's
structure (grouped program ids, K loop, masked edges) is public knowledge, not copied code.
"""

from __future__ import annotations

import os

import triton
import triton.language as tl

from swizzlekit.errors import SwizzleKitError

__all__ = ["matmul_baseline", "CONFIGS", "CONFIGS_FP8"]


# ----------------------------------------------------------------------------------- configs
def _config(bm, bn, bk, group, stages, warps):
    return triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": group},
                         num_stages=stages, num_warps=warps)


_INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"
#: The tutorial's CUDA configs for 16-bit inputs (Triton's interpreter: one small tile).
CONFIGS = [_config(32, 32, 32, 4, 1, 4)] if _INTERPRET else [
    _config(128, 256, 64, 8, 3, 8), _config(64, 256, 32, 8, 4, 4),
    _config(128, 128, 32, 8, 4, 4), _config(128, 64, 32, 8, 4, 4),
    _config(64, 128, 32, 8, 4, 4), _config(128, 32, 32, 8, 4, 4),
    _config(64, 32, 32, 8, 5, 2), _config(32, 64, 32, 8, 5, 2)]
#: The tutorial's CUDA configs for fp8 inputs (deeper in K).
CONFIGS_FP8 = CONFIGS[:1] if _INTERPRET else [
    _config(128, 256, 128, 8, 3, 8), _config(256, 128, 128, 8, 3, 8),
    _config(256, 64, 128, 8, 4, 4), _config(64, 256, 128, 8, 4, 4),
    _config(128, 128, 128, 8, 4, 4), _config(128, 64, 64, 8, 4, 4),
    _config(64, 128, 64, 8, 4, 4), _config(128, 32, 64, 8, 4, 4)]


# ------------------------------------------------------------------------------------ kernel
@triton.jit
def _baseline_body(a_ptr, b_ptr, c_ptr, sa_ptr, sb_ptr, M, N, K, stride_am, stride_ak,
                   stride_bk, stride_bn, stride_cm, stride_cn, SCALED: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = (pid // in_group) * GROUP_M
    rows = tl.minimum(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % in_group) % rows
    pid_n = (pid % in_group) // rows
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if SCALED:                          # fp8: one scale per tensor, applied once at the end
        acc = acc * (tl.load(sa_ptr) * tl.load(sb_ptr))
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty), mask=(cm[:, None] < M) & (cn[None, :] < N))


_baseline_kernel = triton.autotune(configs=CONFIGS, key=["M", "N", "K"])(_baseline_body)
_baseline_fp8_kernel = triton.autotune(configs=CONFIGS_FP8, key=["M", "N", "K"])(_baseline_body)


# ---------------------------------------------------------------------------------- launcher
def matmul_baseline(a, b, out=None, scale_a=None, scale_b=None):
    """``a @ b`` for 2-D fp16 or bf16 torch tensors on one device; for float8_e4m3fn, ``(scale_a
    * a) @ (scale_b * b)`` with one fp32 scale per tensor, written in bf16 (or ``out``'s dtype).
    """
    import torch

    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise SwizzleKitError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} do not multiply")
    fp8 = a.dtype == torch.float8_e4m3fn
    if a.dtype != b.dtype or a.dtype not in (torch.float16, torch.bfloat16, torch.float8_e4m3fn):
        raise SwizzleKitError(f"the baseline takes fp16, bf16 or float8_e4m3fn; got {a.dtype} "
                              f"and {b.dtype}")
    if fp8 != (scale_a is not None and scale_b is not None):
        raise SwizzleKitError("fp8 operands take scale_a and scale_b (one fp32 value each); "
                              "fp16 and bf16 take neither")
    if fp8 and (scale_a.numel() != 1 or scale_b.numel() != 1):
        raise SwizzleKitError("the baseline takes one scale per tensor (scale_a and scale_b of "
                              "one value each)")
    M, K = a.shape
    N = b.shape[1]
    dtype = (out.dtype if out is not None else torch.bfloat16) if fp8 else a.dtype
    c = out if out is not None else torch.empty((M, N), device=a.device, dtype=dtype)
    if c.shape != (M, N) or c.dtype != dtype or (fp8 and dtype not in (torch.bfloat16,
                                                                      torch.float16)):
        raise SwizzleKitError(f"out must be {M}x{N} {dtype}" + (" (fp8: bf16 or fp16)"
                                                                 if fp8 else ""))
    if M == 0 or N == 0:
        return c
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)  # noqa: E731
    kernel = _baseline_fp8_kernel if fp8 else _baseline_kernel
    kernel[grid](a, b, c, scale_a if fp8 else c, scale_b if fp8 else c, M, N, K, a.stride(0),
                 a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), SCALED=fp8)
    return c


# -------------------------------------------------------------------------------- validation
# lab.bench checks every run against float64 with the output poisoned; tests/kernels checks
# this kernel in Triton's interpreter on ragged shapes.
