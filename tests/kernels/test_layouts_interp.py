"""Any layout in, the right product out: ``matmul`` and ``scaled_matmul`` under Triton's
interpreter on operands and outputs of random layouts (row- or column-major views into
larger buffers, at any element offset), random small sizes, every load path the call may
take (``tma`` None, True, False) and, half the time, the copies path forced at any size.
Each output is a view into a NaN buffer: the product matches float64 and nothing outside
the view is written. A ``tma=True`` call on operands TMA cannot read must be refused."""

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")
pytest.importorskip("hypothesis")

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="interpreter tier: runs where there is no GPU")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from swizzlekit.errors import SwizzleKitError  # noqa: E402

LAYOUTS = ("row", "col")


def _view(buffer_dtype, rows, cols, layout, offset, pad, fill):
    """A rows x cols view, row- or column-major, ``offset`` elements into a fresh buffer
    with a spare line, its lines ``pad`` elements longer than the view's; the buffer filled
    with ``fill`` (None: random normal values pushed a quarter away from zero, so that none
    rounds to zero in fp8 and no product's reference is all zeros, which leaves its relative
    error undefined). Returns the view and the buffer."""
    shape = (rows + 1, cols + pad) if layout == "row" else (cols + 1, rows + pad)
    n = shape[0] * shape[1] + offset
    if fill is None:
        x = torch.randn(n)
        flat = (x + torch.where(x < 0, -0.25, 0.25)).to(buffer_dtype)
    else:
        flat = torch.full((n,), fill).to(buffer_dtype)
    base = flat[offset:].view(shape)
    view = base[:rows, :cols] if layout == "row" else base[:cols, :rows].T
    return view, flat


_sizes = st.integers(1, 70)
_layout = st.tuples(st.sampled_from(LAYOUTS), st.integers(0, 9), st.integers(0, 20))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=_sizes, n=_sizes, k=_sizes, la=_layout, lb=_layout, lc=_layout,
       dtype=st.sampled_from([torch.float16, torch.float32]),
       tma=st.sampled_from([None, True, False]), copies=st.booleans())
def test_matmul_any_layout(m, n, k, la, lb, lc, dtype, tma, copies):
    from swizzlekit.kernels.triton import call, copies as rules, matmul as mm
    from swizzlekit.lab.verify import relative_error

    with pytest.MonkeyPatch.context() as patch:
        if copies:
            patch.setattr(rules, "PAD_MIN_MNK", 1)
            patch.setattr(rules, "COPY_MIN_MNK", 1)
            patch.setattr(rules, "COPY_B_MIN_M", 1)
        a, _ = _view(dtype, m, k, *la, None)
        b, _ = _view(dtype, k, n, *lb, None)
        out, buffer = _view(dtype, m, n, *lc, float("nan"))
        try:
            assert mm.matmul(a, b, "grouped", out=out, tma=tma, group=2) is out
        except SwizzleKitError as e:
            assert tma is True and "tma=True" in str(e)
            assert not (call._tma_ok(a) and (call._tma_ok(b) or call._tma_ok(b.T)))
            return
    assert buffer.isnan().sum() == buffer.numel() - m * n          # nothing outside out
    err = relative_error(out, a, b)
    assert err == err and err < mm.TOLERANCE["float16" if dtype == torch.float16 else "tf32"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=_sizes, n=_sizes, k=st.integers(1, 70), la=_layout, lbt=_layout,
       lc=_layout, tma=st.sampled_from([None, True, False]), rowwise=st.booleans())
def test_scaled_matmul_any_layout(m, n, k, la, lbt, lc, tma, rowwise):
    """fp8: A of any layout, B K-major (as the door asks) at any offset and row pitch, out
    of any layout."""
    from swizzlekit.kernels.triton import call
    from swizzlekit.kernels.triton.scaled import TOLERANCE, scaled_matmul
    from swizzlekit.lab.verify import relative_error

    f8 = torch.float8_e4m3fn
    a, _ = _view(f8, m, k, *la, None)
    bt, _ = _view(f8, n, k, "row", *lbt[1:], None)
    b = bt.T
    sa = torch.rand(m, 1) + 0.5 if rowwise else torch.tensor(1.5)
    sb = torch.rand(1, n) + 0.5 if rowwise else torch.tensor(0.75)
    out, buffer = _view(torch.bfloat16, m, n, *lc, float("nan"))
    ref = (a.double() * sa.double()) @ (b.double() * sb.double())
    try:
        assert scaled_matmul(a, b, sa, sb, "grouped", out=out, tma=tma, group=2) is out
    except SwizzleKitError as e:
        assert tma is True and "tma=True" in str(e)
        assert not call._tma_ok(a, bt)
        return
    assert buffer.isnan().sum() == buffer.numel() - m * n
    err = relative_error(out, ref=ref)
    assert err == err and err < TOLERANCE["bfloat16"]
