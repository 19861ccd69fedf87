"""A Triton GEMM whose tile order is read from a table in memory.

Every CTA order runs through this one compiled kernel: CTA ``pid`` computes the output tile
``(order[pid, 0], order[pid, 1])``. Nothing else changes between orders, so differences in
L2 hit rate and time come from the order alone. This is the kernel behind the L2 model's
hardware table (``swizzlekit lab l2 --out DIR``).

Reads top to bottom: configs, kernel, launcher, validation.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CONFIG", "order_table", "table_gemm"]

# ----------------------------------------------------------------------------------- configs
#: One fixed tile shape for every measurement: 128 x 128 x 64, 8 warps, 3 stages.
CONFIG = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)

_kernel = None


# ------------------------------------------------------------------------------------ kernel
def _build_kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def order_table_gemm(a_ptr, b_ptr, c_ptr, order_ptr, M, N, K,
                         stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        pid = tl.program_id(0)
        pid_m = tl.load(order_ptr + 2 * pid)
        pid_n = tl.load(order_ptr + 2 * pid + 1)
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            k_left = K - k * BLOCK_K
            a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty),
                 mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

    return order_table_gemm


# ---------------------------------------------------------------------------------- launcher
def order_table(order: np.ndarray, device) -> "torch.Tensor":  # noqa: F821
    """The order as the int32 table the kernel reads (upload it once, outside timed loops)."""
    import torch

    return torch.as_tensor(np.ascontiguousarray(order, dtype=np.int32).reshape(-1), device=device)


def table_gemm(a, b, order, out=None):
    """``a @ b`` with CTA ``i`` computing output tile ``order[i]`` (torch tensors, one device).

    ``order``: an ``(n, 2)`` numpy order, or a table from :func:`order_table`.
    """
    import torch

    global _kernel
    if _kernel is None:
        _kernel = _build_kernel()
    M, K = a.shape
    _, N = b.shape
    c = out if out is not None else torch.empty((M, N), device=a.device, dtype=a.dtype)
    table = order if isinstance(order, torch.Tensor) else order_table(order, a.device)
    meta = {k: v for k, v in CONFIG.items()}
    _kernel[(table.numel() // 2,)](a, b, c, table, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                           b.stride(1), c.stride(0), c.stride(1), **meta)
    return c


