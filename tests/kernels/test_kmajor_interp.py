"""Interpreter tier: kernels/triton/kmajor.py's K-major copy equals ``b.T.contiguous()``, bit
for bit, on random bit patterns (NaN payloads included, never zeros) of any strides, tile
edges and offsets, and bad input is refused."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")
pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from swizzlekit.errors import SwizzleKitError  # noqa: E402
from swizzlekit.kernels.triton.kmajor import TILE, kmajor_copy  # noqa: E402

SMALL = (8, 16, 4)        # a small tile, so that a few dozen rows cross several programs


def _bits(rows, cols, transposed, offset, dtype):
    """Random nonzero 32-bit patterns (some NaNs with payloads), rows x cols, row-major or a
    transposed view, ``offset`` elements into a larger buffer."""
    flat = torch.randint(1, 2**31 - 1, (rows * cols + offset,), dtype=torch.int32)
    t = flat[offset:].view((cols, rows) if transposed else (rows, cols))
    return (t.T if transposed else t).view(dtype)


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 3 * SMALL[0] + 3), cols=st.integers(1, 3 * SMALL[1] + 5),
       transposed=st.booleans(), offset=st.integers(0, 3), step=st.integers(1, 2),
       dtype=st.sampled_from([torch.float32, torch.int32]), tile=st.sampled_from([SMALL, TILE]))
def test_copy_equals_torch_transpose(rows, cols, transposed, offset, step, dtype, tile):
    b = _bits(rows, cols * step, transposed, offset, dtype)[:, ::step]   # any column stride
    out = kmajor_copy(b, tile)
    assert out.shape == (cols, rows) and out.stride() == (rows, 1) and out.dtype == dtype
    assert torch.equal(out.view(torch.int32), b.T.contiguous().view(torch.int32))


def test_empty_copies_are_empty():
    assert kmajor_copy(torch.ones(0, 5)).shape == (5, 0)


@pytest.mark.parametrize("bad, says", [
    (torch.ones(4, 4, dtype=torch.float16), "4-byte elements"),
    (torch.ones(4), "2-D"),
    ("b", "2-D"),
])
def test_bad_input_is_refused(bad, says):
    with pytest.raises(SwizzleKitError, match=says):
        kmajor_copy(bad)


@pytest.mark.parametrize("tile", [(64, 64), (48, 64, 4), (64, 64, 32), (512, 64, 4),
                                  (64, 64, True), [64, 64, 4], (0, 64, 4)])
def test_bad_tiles_are_refused(tile):
    with pytest.raises(SwizzleKitError, match="powers of two"):
        kmajor_copy(torch.ones(4, 4), tile)
