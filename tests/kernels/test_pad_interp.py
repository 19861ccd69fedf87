"""Interpreter tier: kernels/triton/pad.py's copies equal torch's zero padding, byte for byte,
on random bytes (never zeros) of any strides, and bad input is refused."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from swizzlekit.errors import SwizzleKitError  # noqa: E402
from swizzlekit.kernels.triton.pad import BLOCK_C, BLOCK_R, pad_k  # noqa: E402


def _bytes(rows, k, transposed, offset, dtype):
    """Random nonzero bytes (1..255), rows x k, row-major or a transposed view, ``offset``
    bytes into a larger buffer."""
    shape = (k, rows) if transposed else (rows, k)
    flat = torch.randint(1, 256, (rows * k + offset,), dtype=torch.uint8)
    t = flat[offset:].view(shape)
    t = t.T if transposed else t
    return t.view(dtype)


def _reference(t, k16):
    return torch.nn.functional.pad(t.view(torch.uint8), (0, k16 - t.shape[1]))


@settings(max_examples=40, deadline=None)
@given(m=st.integers(0, 2 * BLOCK_R + 3), n=st.integers(0, 3 * BLOCK_R + 1),
       k=st.one_of(st.integers(1, 70), st.just(BLOCK_C + 17)), ta=st.booleans(),
       tb=st.booleans(), oa=st.integers(0, 5), ob=st.integers(0, 5),
       dtype=st.sampled_from([torch.uint8, torch.float8_e4m3fn]))
def test_copies_equal_zero_padding(m, n, k, ta, tb, oa, ob, dtype):
    a, bt = _bytes(m, k, ta, oa, dtype), _bytes(n, k, tb, ob, dtype)
    a2, b2 = pad_k(a, bt)
    k16 = -(-k // 16) * 16
    for src, out in ((a, a2), (bt, b2)):
        assert out.dtype == dtype and out.shape == (src.shape[0], k16)
        assert out.stride() == (k16, 1)
        assert torch.equal(out.view(torch.uint8), _reference(src, k16))


@pytest.mark.parametrize("a,bt,message", [
    (torch.zeros(3, 5, dtype=torch.uint8), torch.zeros(4, 6, dtype=torch.uint8), "M x K and N x K"),
    (torch.zeros(3, 5), torch.zeros(4, 5), "one-byte tensors"),
    (torch.zeros(5, dtype=torch.uint8), torch.zeros(4, 5, dtype=torch.uint8), "M x K and N x K"),
])
def test_bad_input_is_refused(a, bt, message):
    with pytest.raises(SwizzleKitError, match=message):
        pad_k(a, bt)
