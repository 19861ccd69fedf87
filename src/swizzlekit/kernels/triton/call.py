"""Door stage: a ``matmul`` call, checked and keyed, before any kernel runs (and
``scaled_matmul``'s door, :func:`_check_scaled`).

The door (:func:`_check`: shapes, devices, dtypes, precision, ``out``; :func:`_check_flags`),
the order's kernel arguments (:func:`_order_args`, cached), the launch slots of an order's
grid (:func:`_slots`), whether the tensors can move by TMA (:func:`_tma_ok`) and whether
pointer loads of them take 32-byte sectors whole (:func:`_whole_sectors`), and the signature
a launch plan is filed under (:func:`_signature`). Which operands a call copies first, and
how: :mod:`.copies`.
:mod:`swizzlekit.kernels.triton.matmul` uses them in that order.

>>> _slots("zlayer", 2, 3, 5), _slots("hilbert", 1, 3, 5), _slots("row", 1, 3, 5)
(18, 64, 15)
"""

from __future__ import annotations

import functools

from swizzlekit.cta.orders import ORDERS, order as make_order
from swizzlekit.errors import SwizzleKitError, check_bool
from swizzlekit.kernels.triton.auto_order import AUTO
from swizzlekit.kernels.triton.configs import _INTERPRET

__all__ = ["PRECISIONS", "MAX_DIM"]

#: The ``precision`` choices for fp32 inputs.
PRECISIONS = ("tf32", "ieee")
#: The largest M, N or K taken: the kernels index with 32-bit integers.
MAX_DIM = 2**31 - 1
_DTYPES = ("float16", "bfloat16", "float32")
_PARAM = {"grouped": "group", "grouped_persistent": "group", "strip": "width",
          "strip_snake": "width", "cutlass": "log_tile", "zlayer": "layers"}


def _order_args(order: str, params: dict) -> tuple[str, int]:
    """(the kernel's order name, its integer parameter), after checking name and parameters
    (cached: the check builds an order, 18 us a call on this machine)."""
    try:
        return _order_args_cached(order, tuple(sorted(params.items())))
    except TypeError:                       # an unhashable parameter value: check uncached
        return _order_args_cached.__wrapped__(order, tuple(sorted(params.items())))


def _requested_order(order: str, params: dict) -> tuple[str, int]:
    """:func:`_order_args`, or ``("auto", 0)`` for the L2 model's pick, which the launcher
    resolves on a shape's first call (:mod:`swizzlekit.kernels.triton.auto_order`)."""
    if isinstance(order, str) and order == AUTO:
        if params:
            raise SwizzleKitError(f"order='auto' takes no parameters (got {sorted(params)}); "
                                  f"name an order to give it parameters: " + ", ".join(ORDERS))
        return AUTO, 0
    return _order_args(order, params)


@functools.lru_cache(maxsize=256)
def _order_args_cached(order: str, items: tuple) -> tuple[str, int]:
    params = dict(items)
    if not isinstance(order, str) or order not in ORDERS:
        raise SwizzleKitError(f"unknown order {order!r}; valid orders: auto, "
                              + ", ".join(ORDERS))
    make_order(order, 1, 1, **params)                      # validates the parameters
    name = "grouped_n" if order == "grouped" and params.get("along") == "n" else order
    key = _PARAM.get(order)
    p = params.get(key, ORDERS[order].params.get(key, 1)) if key else 1
    return name, int(p)


def _slots(name: str, p: int, tm: int, tn: int) -> int:
    """Launch slots of order ``name``: its own grid, the power-of-two square, or the tiles."""
    if name == "cutlass":
        return (tm << p) * -(-tn // (1 << p))
    if name == "zlayer":
        return -(-tn // p) * tm * p
    if name in ("morton", "hilbert"):
        side = max(2, 1 << (max(tm, tn) - 1).bit_length())
        return side * side
    return tm * tn


def _tma_ok(*tensors) -> bool:
    """TMA needs row-major tensors with 16-byte aligned bases and row strides."""
    return all(t.stride(1) == 1 and (t.stride(0) * t.element_size()) % 16 == 0
               and t.data_ptr() % 16 == 0 for t in tensors)


def _whole_sectors(tensors, N: int, K: int) -> bool:
    """Whether N, K and each tensor's row pitch (its larger stride) are multiples of 16
    elements: what Triton's integer specialization sees, and what decides whether pointer
    loads of 16-bit rows may take 32-byte sectors whole (:func:`.matmul_configs.tma_by_size`)."""
    return N % 16 == 0 and K % 16 == 0 and all(max(t.stride()) % 16 == 0 for t in tensors)


def _check(a, b, out, precision):
    """The door: 2-D tensors that multiply, on one device, of one supported dtype."""
    import torch

    for name, t in (("a", a), ("b", b), ("out", out)):
        if not isinstance(t, torch.Tensor) and (name != "out" or t is not None):
            raise SwizzleKitError(f"{name} must be a torch tensor, got {type(t).__name__}")
    if not isinstance(precision, str):
        raise SwizzleKitError(f"precision {precision!r} is not valid; choose one of: tf32, ieee")
    if a.dim() != 2 or b.dim() != 2:
        raise SwizzleKitError(f"matmul takes 2-D tensors, got {a.dim()}-D and {b.dim()}-D")
    if a.shape[1] != b.shape[0]:
        raise SwizzleKitError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} do not multiply "
                              f"(inner sizes {a.shape[1]} and {b.shape[0]})")
    if a.device != b.device:
        raise SwizzleKitError(f"a is on {a.device}, b on {b.device}; put both on one device")
    if a.dtype != b.dtype or str(a.dtype).replace("torch.", "") not in _DTYPES:
        raise SwizzleKitError(f"dtypes {a.dtype} and {b.dtype}: both must be one of "
                              f"float16, bfloat16, float32")
    if precision not in PRECISIONS:
        raise SwizzleKitError(f"precision {precision!r} is not valid; choose one of: tf32, ieee")
    if a.device.type != "cuda" and not _INTERPRET:
        raise SwizzleKitError(f"tensors on {a.device} need a GPU, or TRITON_INTERPRET=1 for "
                              f"Triton's interpreter")
    if a.dtype == torch.bfloat16 and _INTERPRET:
        raise SwizzleKitError("Triton's interpreter does not do bf16; use fp16 or fp32")
    M, N = a.shape[0], b.shape[1]
    if out is not None and (out.shape != (M, N) or out.dtype != a.dtype
                            or out.device != a.device):
        raise SwizzleKitError(f"out must be {M}x{N} {a.dtype} on {a.device}, got "
                              f"{tuple(out.shape)} {out.dtype} on {out.device}")


def _check_flags(persistent, tma) -> None:
    """The door for ``persistent`` (True or False) and ``tma`` (:func:`_check_tma`)."""
    check_bool("persistent", persistent)
    _check_tma(tma)


def _check_tma(tma) -> None:
    if not isinstance(tma, (bool, type(None))):
        raise SwizzleKitError(f"tma must be None (TMA where the tensors and size allow it), "
                              f"True or False; got {tma!r}")


def _signature(a, b, c, *rest) -> tuple:
    """What the autotuner and the JIT decide from: shapes, strides, dtype, device, and whether
    each base pointer is 16-byte aligned (the JIT specializes on it), with the options."""
    return (a.dtype, a.device.index, *a.shape, *b.shape, *a.stride(), *b.stride(), *c.stride(),
            a.data_ptr() % 16, b.data_ptr() % 16, c.data_ptr() % 16, *rest)


#: The output dtypes ``scaled_matmul`` writes.
OUT_DTYPES = ("bfloat16", "float16", "float32")


def _check_scaled(a, b, scale_a, scale_b, out, out_dtype):
    """``scaled_matmul``'s door: e4m3 operands that multiply, B K-major, scales of a valid
    form, one device. Returns M, N, K, whether the scales are row-wise, and the output
    dtype."""
    import torch

    for name, t in (("a", a), ("b", b), ("scale_a", scale_a), ("scale_b", scale_b)):
        if not isinstance(t, torch.Tensor):
            raise SwizzleKitError(f"{name} must be a torch tensor, got {type(t).__name__}")
    if a.dim() != 2 or b.dim() != 2:
        raise SwizzleKitError(f"scaled_matmul takes 2-D a and b, got {a.dim()}-D and {b.dim()}-D")
    if a.shape[1] != b.shape[0]:
        raise SwizzleKitError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} do not multiply "
                              f"(inner sizes {a.shape[1]} and {b.shape[0]})")
    if a.dtype != torch.float8_e4m3fn or b.dtype != torch.float8_e4m3fn:
        raise SwizzleKitError(f"dtypes {a.dtype} and {b.dtype}: scaled_matmul takes "
                              f"float8_e4m3fn (use swizzlekit.kernels.matmul for fp16, bf16, fp32)")
    M, K = a.shape
    N = b.shape[1]
    if b.stride(0) != 1 and K > 1:
        raise SwizzleKitError("fp8 B must be K-major, as Hopper's fp8 tensor cores and "
                              "torch._scaled_mm take it: pass b = bt.T for an N x K bt")
    devices = {t.device for t in (a, b, scale_a, scale_b)}
    if len(devices) != 1:
        raise SwizzleKitError("a, b, scale_a and scale_b must be on one device; got "
                              + ", ".join(sorted(map(str, devices))))
    for name, s in (("scale_a", scale_a), ("scale_b", scale_b)):
        if s.dtype != torch.float32:
            raise SwizzleKitError(f"{name} must be float32, got {s.dtype}")
    if scale_a.numel() == 1 and scale_b.numel() == 1:
        rowwise = False
    elif tuple(scale_a.shape) == (M, 1) and tuple(scale_b.shape) == (1, N):
        rowwise = True
    else:
        raise SwizzleKitError(f"scales of shapes {tuple(scale_a.shape)} and "
                              f"{tuple(scale_b.shape)}: give one value each (per tensor), or "
                              f"({M}, 1) and (1, {N}) (per row of A and column of B)")
    if out_dtype is None:
        out_dtype = out.dtype if out is not None else torch.bfloat16
    if not isinstance(out_dtype, torch.dtype) or str(out_dtype)[6:] not in OUT_DTYPES:
        raise SwizzleKitError(f"out_dtype {out_dtype!r} is not valid; choose one of: torch."
                              + ", torch.".join(OUT_DTYPES))
    if out is not None and (tuple(out.shape) != (M, N) or out.dtype != out_dtype
                            or out.device != a.device):
        raise SwizzleKitError(f"out must be {M}x{N} {out_dtype} on {a.device}, got "
                              f"{tuple(out.shape)} {out.dtype} on {out.device}")
    if a.device.type != "cuda" and not _INTERPRET:
        raise SwizzleKitError(f"tensors on {a.device} need a GPU, or TRITON_INTERPRET=1 for "
                              f"Triton's interpreter")
    return M, N, K, rowwise, out_dtype
