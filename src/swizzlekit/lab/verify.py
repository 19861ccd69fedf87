"""Verification against float64: relative Frobenius error, with unwritten outputs caught.

Every GEMM check in swizzlekit goes through here: fresh random inputs, the output poisoned
with NaN before the kernel runs (an unwritten element keeps its NaN, and NaN never passes),
and ``||out - ref|| / ||ref||`` against the product in float64.
"""

from __future__ import annotations

__all__ = ["random_operands", "scaled_operands", "poisoned", "poisoned_view", "relative_error",
           "error_of", "check_matmul", "check_scaled_matmul", "check_table_gemm",
           "MAX_ELEMENTS"]

#: The most elements an operand or output made here may have (2^31: 4-8 GiB).
MAX_ELEMENTS = 2**31


_UNCHECKED = object()


def _door(sizes: dict, dtype=_UNCHECKED, device=None) -> None:
    """The door of the helpers below: sizes (at least 1, no operand past
    :data:`MAX_ELEMENTS`), a torch dtype, a device torch knows."""
    import torch

    from swizzlekit.errors import SwizzleKitError, check_int

    values = {name: check_int(name, v, 1, MAX_ELEMENTS) for name, v in sizes.items()}
    m, n, k = (values.get(x, 1) for x in ("m", "n", "k"))
    if max(m * k, k * n, m * n) > MAX_ELEMENTS:
        raise SwizzleKitError(f"{m} x {n} x {k}: an operand would pass {MAX_ELEMENTS} elements")
    if dtype is not _UNCHECKED and not isinstance(dtype, torch.dtype):
        raise SwizzleKitError(f"dtype must be a torch dtype (torch.bfloat16, ...); got {dtype!r}")
    if device is not None:
        try:
            torch.device(device)
        except (TypeError, RuntimeError, ValueError):
            raise SwizzleKitError(f"device must name a torch device ('cpu', 'cuda', ...); got "
                                  f"{device!r}") from None


def random_operands(m: int, n: int, k: int, dtype, device, transpose_a: bool = False,
                    transpose_b: bool = False):
    """Fresh standard-normal A (m x k) and B (k x n); transposed views when asked. fp8
    operands are drawn in fp32 and rounded (torch draws no fp8 directly)."""
    import torch

    _door({"m": m, "n": n, "k": k}, dtype, device)

    def draw(rows, cols):
        if dtype.is_floating_point and dtype.itemsize == 1:
            return torch.randn(rows, cols, device=device).to(dtype)
        return torch.randn(rows, cols, device=device, dtype=dtype)

    a = draw(k, m).T if transpose_a else draw(m, k)
    b = draw(n, k).T if transpose_b else draw(k, n)
    return a, b


def poisoned(m: int, n: int, dtype, device):
    """An m x n output full of NaN."""
    import torch

    _door({"m": m, "n": n}, dtype, device)

    return torch.full((m, n), float("nan"), device=device, dtype=dtype)


def poisoned_view(m: int, n: int, dtype, device, layout: str = "offset rows"):
    """``(out, outside)``: an m x n output that TMA cannot store, a view into a NaN buffer
    with room to spare, and that spare room, which a correct call leaves NaN. ``layout``:
    "offset rows" (rows n + 1 elements apart, starting one element in) or "column-major".

    >>> import torch
    >>> out, outside = poisoned_view(3, 5, torch.float16, "cpu", "column-major")
    >>> tuple(out.shape), out.stride(), tuple(outside.shape)
    ((3, 5), (1, 3), (3,))
    """
    import torch

    _door({"m": m, "n": n}, dtype, device)

    if layout == "offset rows":
        big = torch.full((m, n + 1), float("nan"), device=device, dtype=dtype)
        return big[:, 1:], big[:, 0]
    if layout == "column-major":
        big = torch.full((n + 1, m), float("nan"), device=device, dtype=dtype)
        return big[:n].T, big[n]
    from swizzlekit.errors import SwizzleKitError

    raise SwizzleKitError(f"layout {layout!r} is not valid; choose one of: offset rows, "
                          f"column-major")


def relative_error(out, a=None, b=None, ref=None) -> float:
    """``||out - a @ b|| / ||a @ b||`` in float64 (pass ``ref`` to reuse a reference).
    NaN anywhere in ``out`` gives NaN, which fails every ``err < bound`` test."""
    import torch

    from swizzlekit.errors import SwizzleKitError

    given = {"out": out, **({"ref": ref} if ref is not None else {"a": a, "b": b})}
    for name, t in given.items():
        if not isinstance(t, torch.Tensor):
            raise SwizzleKitError(f"relative_error: {name} must be a torch tensor; got {t!r:.60}")
    if ref is None:
        ref = a.double() @ b.double()
    return float(torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref))


def error_of(fn, a, b) -> float:
    """The relative error of ``fn(out)`` against ``a @ b`` in float64, ``out`` (M x N, of
    ``a``'s dtype and device) poisoned with NaN before ``fn`` writes it.

    >>> import torch
    >>> a, b = torch.randn(3, 4), torch.randn(4, 5)
    >>> error_of(lambda out: torch.matmul(a, b, out=out), a, b) < 1e-6
    True
    >>> error_of(lambda out: None, a, b)                 # nothing written: NaN fails any bound
    nan
    """
    out = poisoned(a.shape[0], b.shape[1], a.dtype, a.device)
    fn(out)
    return relative_error(out, a, b)


def check_matmul(M: int, N: int, K: int, dtype, order: str = "grouped", *, device="cuda",
                 precision: str = "tf32", transpose_a: bool = False, transpose_b: bool = False,
                 persistent: bool = False, tma: bool | None = None, **order_params) -> float:
    """:func:`swizzlekit.kernels.matmul` against float64: fresh random inputs, poisoned output."""
    from swizzlekit.kernels import matmul

    a, b = random_operands(M, N, K, dtype, device, transpose_a, transpose_b)
    return error_of(lambda c: matmul(a, b, order, out=c, precision=precision,
                                     persistent=persistent, tma=tma, **order_params), a, b)


def check_table_gemm(M: int, N: int, K: int, order, device: str = "cuda", dtype=None, *,
                     config: str = "128x128x64", persistent: bool = False,
                     programs: int | None = None) -> float:
    """The order-table GEMM against float64 under ``order`` (an (tiles, 2) array over the
    tile grid of ``config``); fp8 operands are rounded first and B passed K-major."""
    import torch

    from swizzlekit.kernels.triton.table_gemm import table_gemm

    dtype = dtype or torch.float16
    fp8 = dtype == torch.float8_e4m3fn
    a, b = random_operands(M, N, K, dtype, device, transpose_b=fp8)
    c = poisoned(M, N, torch.float16 if fp8 else dtype, device)
    table_gemm(a, b, order, out=c, config=config, persistent=persistent, programs=programs)
    return relative_error(c, a, b)


def scaled_operands(m: int, n: int, k: int, device, rowwise: bool = False):
    """Fresh e4m3 A (m x k) and K-major B (k x n, a transposed n x k tensor) with fp32 scales
    that map each tensor's (or each row's and column's) largest magnitude to e4m3's largest
    finite value, 448; and the float64 product of the scaled operands, the reference.

    The values are drawn in fp32 at magnitudes spread over rows (0.1 to 1.1 times up to 4
    standard normals, so that the scales matter, and products stay within fp16's range for K
    up to about 10^6), scaled down and rounded to e4m3: ``a = round(a_f32 / scale_a)``, and the reference multiplies
    back what the rounding kept."""
    import torch

    _door({"m": m, "n": n, "k": k}, device=device)
    a32 = torch.randn(m, k, device=device) * torch.rand(m, 1, device=device).add(0.1) * 4
    b32 = torch.randn(n, k, device=device) * torch.rand(n, 1, device=device).add(0.1) * 4
    if rowwise:
        sa = a32.abs().amax(dim=1, keepdim=True).clamp(min=1e-6) / 448
        sb = (b32.abs().amax(dim=1, keepdim=True).clamp(min=1e-6) / 448).T
    else:
        sa = (a32.abs().max().clamp(min=1e-6) / 448).reshape(())
        sb = (b32.abs().max().clamp(min=1e-6) / 448).reshape(())
    a = (a32 / sa).to(torch.float8_e4m3fn)
    b = (b32 / sb.reshape(-1, 1) if rowwise else b32 / sb).to(torch.float8_e4m3fn).T
    ref = (a.double() * sa.double()) @ (b.double() * sb.double())
    return a, b, sa.float(), sb.float(), ref


def check_scaled_matmul(M: int, N: int, K: int, *, device="cuda", rowwise: bool = False,
                        out_dtype=None, order: str = "grouped", tma: bool | None = None,
                        persistent: bool = False, transpose_a: bool = False,
                        **order_params) -> float:
    """:func:`swizzlekit.kernels.triton.scaled.scaled_matmul` against float64: fresh scaled
    e4m3 operands (A transposed in memory when asked), poisoned output."""
    import torch

    from swizzlekit.kernels.triton.scaled import scaled_matmul

    a, b, sa, sb, ref = scaled_operands(M, N, K, device, rowwise)
    if transpose_a:
        a = a.T.contiguous().T
    c = poisoned(M, N, out_dtype or torch.bfloat16, device)
    scaled_matmul(a, b, sa, sb, order, out=c, tma=tma, persistent=persistent, **order_params)
    return relative_error(c, ref=ref)
