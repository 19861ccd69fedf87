"""GEMM kernels and their registry.

``swizzlekit.kernels.matmul`` is the Triton tensor-core GEMM under any CTA order;
:data:`KERNELS` names every implementation the benchmark can run (cuBLAS through torch
included). torch and triton are imported when a kernel runs, not here.

>>> names = [k for k in sorted(KERNELS) if not k.startswith("cuda_")]
>>> names[:4]
['cublas', 'cutlass', 'table_gemm', 'triton']
>>> names[4:]
['triton_baseline', 'triton_persistent', 'triton_pointer']
>>> sum(k.startswith("cuda_") for k in KERNELS)     # the SGEMM ladder and seed 001's kernels
15
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.cuda.cutlass import ALIGN as CUTLASS_ALIGN

__all__ = ["KernelSpec", "KERNELS", "kernel", "matmul"]


def matmul(a, b, order: str = "auto", **kwargs):
    """``a @ b`` by the Triton GEMM under ``order`` (default: the L2 model's pick; see
    kernels/triton/matmul.py)."""
    from swizzlekit.kernels.triton.matmul import matmul as _matmul

    return _matmul(a, b, order, **kwargs)


@dataclass(frozen=True)
class KernelSpec:
    name: str
    backend: str
    dtypes: tuple[str, ...]
    takes_order: bool
    demonstrates: str
    run: Callable
    #: ``describe(a, b, out=..., **kw)`` with ``run``'s arguments: how the call runs now (the
    #: route and plan its earlier calls kept, :func:`.triton.matmul.describe`), or None.
    describe: Callable | None = None
    #: ``accepts(m, n, k, precision)``: whether it runs that shape in that precision on the
    #: benchmark's contiguous operands (None: every shape); the benchmark skips the others.
    accepts: Callable | None = None


def _cublas(a, b, out=None, precision="tf32", scale_a=None, scale_b=None, **_):
    """torch.matmul; for fp8 operands (scales given) torch._scaled_mm with
    ``use_fast_accum=True``: the products summed in the tensor cores' accumulator without
    periodic promotion, as Triton's fp8 dot does on Hopper (its max_num_imprecise_acc)."""
    import torch

    if scale_a is not None:
        return torch._scaled_mm(a, b, scale_a, scale_b, out_dtype=out.dtype, use_fast_accum=True,
                                out=out)
    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    return torch.matmul(a, b, out=out)


def _triton(a, b, out=None, precision="tf32", order="auto", scale_a=None, scale_b=None,
            **params):
    if scale_a is not None:
        from swizzlekit.kernels.triton.scaled import scaled_matmul

        return scaled_matmul(a, b, scale_a, scale_b, order, out=out, **params)
    return matmul(a, b, order, out=out, precision=precision, **params)


def _triton_persistent(a, b, out=None, precision="tf32", order="auto", **params):
    return _triton(a, b, out=out, precision=precision, order=order, persistent=True, **params)


def _triton_pointer(a, b, out=None, precision="tf32", order="auto", **params):
    return _triton(a, b, out=out, precision=precision, order=order, tma=False, **params)


def _describe(persistent: bool = False, tma: bool | None = None) -> Callable:
    """The ``describe`` of a ``matmul`` spec (fp8 calls, with scales: ``scaled_describe``)."""
    def describe(a, b, out=None, precision="tf32", order="auto", scale_a=None, scale_b=None,
                 **params):
        flags = dict(persistent=True) if persistent else dict(tma=tma) if tma is not None else {}
        if scale_a is not None:
            from swizzlekit.kernels.triton.scaled import scaled_describe

            return scaled_describe(a, b, scale_a, scale_b, order, out=out, **flags, **params)
        from swizzlekit.kernels.triton.matmul import describe as _describe_call

        return _describe_call(a, b, order, out=out, precision=precision, **flags, **params)
    return describe


def _baseline(a, b, out=None, scale_a=None, scale_b=None, **_):
    from swizzlekit.kernels.triton.baseline import matmul_baseline

    return matmul_baseline(a, b, out=out, scale_a=scale_a, scale_b=scale_b)


def _cutlass(a, b, out=None, scale_a=None, scale_b=None, **_):
    if scale_a is not None:                  # fp8, whole tiles
        from swizzlekit.kernels.cuda.cutlass_fp8 import cutlass_scaled_matmul

        return cutlass_scaled_matmul(a, b, scale_a, scale_b, out=out)
    from swizzlekit.kernels.cuda.cutlass import cutlass_matmul

    return cutlass_matmul(a, b, out=out)


def _cutlass_accepts(m: int, n: int, k: int, precision: str) -> bool:
    """What CUTLASS's GEMMs take on contiguous operands: rows of 16-byte multiples (K of 8
    16-bit or 16 fp8 elements; C's and 16-bit B's rows, N, of 8).

    >>> _cutlass_accepts(3000, 5000, 4000, "bf16"), _cutlass_accepts(256, 14336, 4008, "fp8")
    (True, False)
    """
    return n % CUTLASS_ALIGN == 0 and k % (16 if precision == "fp8" else CUTLASS_ALIGN) == 0


def _table(a, b, out=None, precision="tf32", order="auto", **params):
    from swizzlekit.cta import order as make_order
    from swizzlekit.kernels.triton.table_gemm import CONFIG, table_gemm

    M, K = a.shape
    N = b.shape[1]
    tm, tn = -(-M // CONFIG["BLOCK_M"]), -(-N // CONFIG["BLOCK_N"])
    if order == "auto" and not params:       # the L2 model's pick for this kernel's one tile
        from swizzlekit.kernels.triton.auto_order import pick

        label = (f"{CONFIG['BLOCK_M']}x{CONFIG['BLOCK_N']}x{CONFIG['BLOCK_K']}"
                 f"/s{CONFIG['num_stages']}/w{CONFIG['num_warps']}")
        chosen = pick(M, N, K, "16bit", "pointer", (label,), 2, 2)
        order, params = chosen.order, chosen.params
    return table_gemm(a, b, make_order(order, tm, tn, **params), out=out)


KERNELS: dict[str, KernelSpec] = {k.name: k for k in [
    KernelSpec("cublas", "torch", ("fp16", "bf16", "tf32", "fp32", "fp8"), False,
               "the vendor library through torch.matmul (fp8: torch._scaled_mm): the bar to "
               "reach", _cublas),
    KernelSpec("triton", "triton", ("fp16", "bf16", "tf32", "fp32", "fp8"), True,
               "tensor-core GEMM, autotuned, any CTA order through @triton.jit order functions; "
               "tiles moved by TMA when the tensors allow, except small 16-bit calls (pointer "
               "loads, less host time); large calls copy the operands whose rows TMA cannot read; "
               "fp8 with scales through kernels/triton/scaled.py", _triton, _describe()),
    KernelSpec("triton_pointer", "triton", ("fp16", "bf16", "tf32", "fp32", "fp8"), True,
               "the same GEMM with pointer loads (cp.async) instead of TMA", _triton_pointer,
               _describe(tma=False)),
    KernelSpec("triton_persistent", "triton", ("fp16", "bf16", "tf32", "fp32", "fp8"), True,
               "the same kernel as a persistent grid (two programs per SM walking the order)",
               _triton_persistent, _describe(persistent=True)),
    KernelSpec("triton_baseline", "triton", ("fp16", "bf16", "fp8"), False,
               "the bar a Triton user starts from: tutorial-03's shape (grouped order, pointer "
               "loads, 8 autotuned configs; fp8: its fp8 configs, scales in the epilogue)",
               _baseline),
    KernelSpec("cutlass", "cuda (nvcc, CUTLASS)", ("fp16", "bf16", "fp8"), False,
               "CUTLASS's Hopper GEMM in clusters of two CTAs sharing B's tiles by TMA multicast "
               "(what Triton 3.6 cannot give a kernel); sm_90, 16-byte-aligned rows (fp8: B "
               "K-major, one scale a tensor, whole tiles); built by nvcc on first use", _cutlass,
               accepts=_cutlass_accepts),
    KernelSpec("table_gemm", "triton", ("fp16", "bf16"), True,
               "fixed 128x128x64 tiles reading the order from a table (the L2 measurements)",
               _table),
]}


def _cuda_rung(name: str) -> Callable:
    def run(a, b, out=None, **_):
        from swizzlekit.kernels.cuda.ladder import run as run_rung

        return run_rung(name, a, b, out=out)
    return run


def _register_cuda() -> None:
    from swizzlekit.kernels.cuda.ladder import RUNGS

    for r in RUNGS:
        precision = ("tf32",) if r.tolerance > 1e-5 else ("fp32",)
        KERNELS[r.name] = KernelSpec(r.name, "cuda (NVRTC)", precision, False, r.demonstrates,
                                     _cuda_rung(r.name))


_register_cuda()


def kernel(name: str) -> KernelSpec:
    """The registered kernel ``name``; the error lists the valid names."""
    if not isinstance(name, str) or name not in KERNELS:
        raise SwizzleKitError(f"unknown kernel {name!r}; valid kernels: " + ", ".join(KERNELS))
    return KERNELS[name]
