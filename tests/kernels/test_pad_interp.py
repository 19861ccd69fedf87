"""Interpreter tier: kernels/triton/pad.py's copies equal torch's zero padding, bit for bit, on
random values (never zeros) of any strides and element sizes, and bad input is refused."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from swizzlekit.errors import SwizzleKitError  # noqa: E402
from swizzlekit.kernels.triton.pad import BLOCK_C, BLOCK_R, pad_k, pad_pair, pad_to  # noqa: E402


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


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 2 * BLOCK_R + 3), cols=st.integers(1, 40), more_rows=st.integers(0, 9),
       more_cols=st.integers(0, 20), transposed=st.booleans(), offset=st.integers(0, 3),
       dtype=st.sampled_from([torch.float16, torch.bfloat16, torch.float32]))
def test_pad_to_equals_zero_padding(rows, cols, more_rows, more_cols, transposed, offset, dtype):
    shape = (cols, rows) if transposed else (rows, cols)
    flat = torch.rand(rows * cols + offset, dtype=torch.float32).add_(0.5).to(dtype)
    t = flat[offset:].view(shape)
    t = t.T if transposed else t
    out = pad_to(t, rows + more_rows, cols + more_cols)
    want = torch.nn.functional.pad(t, (0, more_cols, 0, more_rows))
    assert out.dtype == dtype and out.stride() == (cols + more_cols, 1)
    assert torch.equal(out, want)


@settings(max_examples=30, deadline=None)
@given(shapes=st.lists(st.tuples(st.integers(1, 20), st.integers(1, 30), st.integers(0, 9),
                                 st.integers(0, 9), st.booleans()), min_size=2, max_size=2),
       dtype=st.sampled_from([torch.bfloat16, torch.float32]))
def test_pad_pair_copies_both_in_one_launch(shapes, dtype):
    tensors, targets = [], []
    for rows, cols, more_rows, more_cols, transposed in shapes:
        t = torch.rand((cols, rows) if transposed else (rows, cols)).add_(0.5).to(dtype)
        tensors.append(t.T if transposed else t)
        targets.append((rows + more_rows, cols + more_cols))
    for t, to, out in zip(tensors, targets, pad_pair(tensors[0], targets[0], tensors[1],
                                                     targets[1])):
        want = torch.nn.functional.pad(t, (0, to[1] - t.shape[1], 0, to[0] - t.shape[0]))
        assert out.stride() == (to[1], 1) and torch.equal(out, want)


@pytest.mark.parametrize("a,bt,message", [
    (torch.zeros(3, 5, dtype=torch.uint8), torch.zeros(4, 6, dtype=torch.uint8), "M x K and N x K"),
    (torch.zeros(3, 5), torch.zeros(4, 5), "one-byte tensors"),
    (torch.zeros(5, dtype=torch.uint8), torch.zeros(4, 5, dtype=torch.uint8), "M x K and N x K"),
])
def test_bad_input_is_refused(a, bt, message):
    with pytest.raises(SwizzleKitError, match=message):
        pad_k(a, bt)


@pytest.mark.parametrize("t,rows,cols,message", [
    (torch.zeros(3, 5), 2, 5, r"no smaller, got \(3, 5\) into \(2, 5\)"),
    (torch.zeros(3), 3, 5, "2-D tensors"),
    (torch.zeros(3, 5, dtype=torch.float64), 3, 16, "1, 2 or 4 bytes"),
    ([[1.0, 2.0]], 1, 16, "torch tensors, got list"),
])
def test_pad_to_refuses_bad_input(t, rows, cols, message):
    with pytest.raises(SwizzleKitError, match=message):
        pad_to(t, rows, cols)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32, torch.uint8])
@pytest.mark.parametrize("view_cols", [40, 48])
def test_rows_that_move_16_bytes_at_a_time_copy_as_torch_pads(dtype, view_cols):
    """A row stride that is a multiple of 16 bytes but not of 16 elements (40 bf16: B's 5000
    in 3000x5000x4000 scaled down) copies 16 bytes at a time on a GPU (pad._vec); the copy
    still equals torch's padding, and views whose rows or bases are not 16-byte aligned copy
    element by element."""
    from swizzlekit.kernels.triton.pad import _vec

    per = 16 // torch.empty((), dtype=dtype).element_size()
    buf = torch.rand(2 * BLOCK_R + 3, 2 * view_cols).add_(0.5).to(dtype)
    for t, vec in ((buf[:, :view_cols], per if view_cols % per == 0 else 1),
                   (buf[:, 1:view_cols + 1], 1)):
        to_cols = -(-view_cols // 64) * 64 + 64
        assert _vec(t, to_cols) == vec
        out = pad_to(t, t.shape[0] + 5, to_cols)
        assert torch.equal(out, torch.nn.functional.pad(t, (0, to_cols - t.shape[1], 0, 5)))


def test_a_repeat_call_goes_straight_to_its_plan(monkeypatch):
    """A copy whose tensors' print (shape, strides, dtype, device, base alignment, buffer
    shapes) was planned before skips the door: the plan kept for that print launches on the
    tensors' addresses, into fresh buffers of the asked shapes; another print misses it."""
    from swizzlekit.kernels.triton import pad

    launched = []
    a, b = _bytes(5, 14, False, 0, torch.float16), _bytes(3, 18, False, 0, torch.float16)
    print_ = pad._print(a, (5, 16), b, (3, 16))
    monkeypatch.setattr(pad, "_REPEATS", pad.PlanCache(4))
    pad._REPEATS.put(print_, lambda *addresses: launched.append(addresses))
    a2, b2 = pad_pair(a, (5, 16), b, (3, 16))
    assert a2.shape == (5, 16) and b2.shape == (3, 16) and a2.dtype == b2.dtype == a.dtype
    assert launched == [(a.data_ptr(), a2.data_ptr(), b.data_ptr(), b2.data_ptr())]
    a3, b3 = pad_pair(a, (5, 32), b, (3, 16))             # a new print: copied for real
    as_int = lambda t: t.view(torch.int16)                # random bytes hold NaNs
    assert len(launched) == 1 and torch.equal(as_int(a3[:, :7]), as_int(a))
    assert not as_int(a3[:, 7:]).any()
    assert pad._print(a, (5, 16), "b", (3, 16)) is None    # the door answers these
    with pytest.raises(SwizzleKitError):
        pad_pair(a, (5, 16), "b", (3, 16))
