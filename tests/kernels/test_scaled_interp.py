"""swizzlekit.kernels.triton.scaled (fp8 with scales) in Triton's interpreter on CPU tensors
(CI tier 2): ragged shapes, every order, per-tensor and row-wise scales, TMA and pointer
loads, against the float64 product of the scaled operands, with NaN-poisoned outputs."""

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="interpreter tier: runs where there is no GPU")

from hypothesis import given, settings, strategies as st  # noqa: E402

from swizzlekit.cta import ORDERS  # noqa: E402
from swizzlekit.errors import SwizzleKitError  # noqa: E402

F8 = torch.float8_e4m3fn


def _check(*args, out_dtype=torch.bfloat16, **kwargs):
    from swizzlekit.kernels.triton.scaled import TOLERANCE
    from swizzlekit.lab.verify import check_scaled_matmul

    err = check_scaled_matmul(*args, device="cpu", out_dtype=out_dtype, **kwargs)
    assert err == err and err < TOLERANCE[str(out_dtype)[6:]], err


@pytest.mark.parametrize("name", list(ORDERS))
@pytest.mark.parametrize("rowwise", [False, True])
def test_every_order_ragged_pointer_loads(name, rowwise):
    # K = 45 is not a multiple of 16: the pointer-load kernel, masked in K, ragged at M and N
    _check(100, 70, 45, order=name, rowwise=rowwise)


@pytest.mark.parametrize("name", ["row", "grouped", "hilbert", "zlayer"])
@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_tma_ragged(name, persistent, out_dtype):
    # rows of 48 e4m3 and of 72 outputs are 16-byte aligned: TMA, zero-filled at every edge
    _check(100, 72, 48, order=name, persistent=persistent, out_dtype=out_dtype, tma=True,
           rowwise=persistent)


def test_transposed_a_takes_pointer_loads():
    _check(65, 33, 40, transpose_a=True, rowwise=True, out_dtype=torch.float16)


def test_edge_sizes():
    from swizzlekit.kernels.triton.scaled import scaled_matmul

    one = torch.ones(())
    a, b = torch.randn(5, 0).to(F8), torch.randn(7, 0).to(F8).T
    assert torch.equal(scaled_matmul(a, b, one, one), torch.zeros(5, 7, dtype=torch.bfloat16))
    a, b = torch.randn(0, 16).to(F8), torch.randn(7, 16).to(F8).T
    assert scaled_matmul(a, b, one, one).shape == (0, 7)


@settings(max_examples=12, deadline=None)
@given(m=st.integers(1, 40), n=st.integers(1, 40), k=st.integers(1, 40),
       shift=st.integers(-3, 3), rowwise=st.booleans())
def test_scales_multiply_the_result_exactly(m, n, k, shift, rowwise):
    """Multiplying a scale by a power of two multiplies every output by it, exactly (fp32
    output), and the unscaled product equals the float64 product of the e4m3 values."""
    from swizzlekit.kernels.triton.scaled import scaled_matmul

    a, b = torch.randn(m, k).to(F8), torch.randn(n, k).to(F8).T
    sa = torch.ones(m, 1) if rowwise else torch.ones(())
    sb = torch.ones(1, n) if rowwise else torch.ones(())
    base = scaled_matmul(a, b, sa, sb, out_dtype=torch.float32)
    ref = a.double() @ b.double()
    assert torch.allclose(base.double(), ref, rtol=1e-6, atol=1e-5)
    scaled = scaled_matmul(a, b, sa * 2.0 ** shift, sb, out_dtype=torch.float32)
    assert torch.equal(scaled, base * 2.0 ** shift)


def _ab(m=4, n=3, k=16):
    return torch.randn(m, k).to(F8), torch.randn(n, k).to(F8).T


@pytest.mark.parametrize("call,message", [
    (lambda f: f(torch.randn(4, 16), _ab()[1], torch.ones(()), torch.ones(())),
     "takes float8_e4m3fn"),
    (lambda f: f(_ab()[0], torch.randn(16, 3).to(F8), torch.ones(()), torch.ones(())),
     "must be K-major"),
    (lambda f: f(_ab()[0], _ab(k=8)[1], torch.ones(()), torch.ones(())), "do not multiply"),
    (lambda f: f(*_ab(), torch.ones(4), torch.ones(3)), r"\(4, 1\) and \(1, 3\)"),
    (lambda f: f(*_ab(), torch.ones(4, 1), torch.ones(())), "per row of A and column of B"),
    (lambda f: f(*_ab(), torch.ones((), dtype=torch.float16), torch.ones(())),
     "scale_a must be float32"),
    (lambda f: f(*_ab(), 1.0, torch.ones(())), "scale_a must be a torch tensor"),
    (lambda f: f(*_ab(), torch.ones(()), torch.ones(()), out_dtype=torch.int8),
     "torch.bfloat16, torch.float16, torch.float32"),
    (lambda f: f(*_ab(), torch.ones(()), torch.ones(()), out=torch.empty(4, 3),
                 out_dtype=torch.bfloat16), "out must be 4x3 torch.bfloat16"),
    (lambda f: f(*_ab(), torch.ones(()), torch.ones(()), out=torch.empty(4, 3).double()),
     "out_dtype torch.float64 is not valid"),
    (lambda f: f(*_ab(), torch.ones(()), torch.ones(()), out=torch.empty(3, 3),
                 out_dtype=torch.float32), "out must be 4x3"),
    (lambda f: f(*_ab(k=20), torch.ones(()), torch.ones(()), tma=True),
     "multiple of 16"),
    (lambda f: f(*_ab(k=20), torch.ones(()), torch.ones(()), persistent=True),
     "persistent=True needs TMA"),
    (lambda f: f(*_ab(), torch.ones(()), torch.ones(()), "diagonal"), "valid orders: auto, row"),
    (lambda f: f(*_ab(), torch.ones(()), torch.ones(()), tma="on"), "tma must be None"),
    (lambda f: f(*_ab(), torch.ones(()), torch.ones(()), persistent=None),
     "persistent must be True or False"),
])
def test_bad_input(call, message):
    from swizzlekit.kernels.triton.scaled import scaled_matmul

    with pytest.raises(SwizzleKitError, match=message):
        call(scaled_matmul)


@pytest.mark.parametrize("m,n,k", [(70, 90, 50), (33, 129, 65)])
def test_the_baseline_takes_fp8_with_scales(m, n, k):
    """The tutorial-shaped baseline in fp8, per-tensor scales in its epilogue, poisoned bf16
    output, against float64."""
    from swizzlekit.kernels.triton.baseline import matmul_baseline
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(m, n, k, "cpu")
    c = poisoned(m, n, torch.bfloat16, "cpu")
    matmul_baseline(a, b, out=c, scale_a=sa, scale_b=sb)
    err = relative_error(c, ref=ref)
    assert err == err and err < 1e-2


@pytest.mark.parametrize("kwargs,message", [
    ({}, "take scale_a and scale_b"),
    ({"scale_a": torch.ones(4, 1), "scale_b": torch.ones(())}, "one scale per tensor"),
    ({"scale_a": torch.ones(()), "scale_b": torch.ones(()), "out": torch.empty(4, 3)},
     r"fp8: bf16 or fp16"),
])
def test_the_baseline_refuses_bad_fp8_calls(kwargs, message):
    from swizzlekit.kernels.triton.baseline import matmul_baseline

    with pytest.raises(SwizzleKitError, match=message):
        matmul_baseline(*_ab(), **kwargs)


@pytest.fixture
def copies(monkeypatch):
    """Every problem counts as large enough to copy (FP8_PAD_MIN_MNK 1); returns the copies
    made."""
    from swizzlekit.kernels.triton import scaled

    made = []
    real = scaled._aligned_copies

    def spy(*args):
        out = real(*args)
        made.append(out)
        return out

    monkeypatch.setattr(scaled, "FP8_PAD_MIN_MNK", 1)
    monkeypatch.setattr(scaled, "_aligned_copies", spy)
    return made


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("rowwise", [False, True])
@pytest.mark.parametrize("persistent", [False, True])
def test_rows_tma_cannot_take_run_on_aligned_copies(copies, transpose_a, rowwise, persistent):
    # K = 45 bytes a row, C rows of 70 bf16: A and Bᵀ are copied with K rounded up to 48 and
    # zeros past 45; C, whose rows TMA cannot take either, is written in place by masked
    # stores, by a persistent grid too
    _check(100, 70, 45, rowwise=rowwise, transpose_a=transpose_a, persistent=persistent)
    (a2, b2), = copies
    assert a2.shape == (100, 48) and a2.stride() == (48, 1)
    assert b2.shape == (48, 70) and b2.stride() == (1, 48)
    assert not a2[:, 45:].float().any() and not b2[45:].float().any()


@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("tma", [None, True])
def test_tma_loads_with_c_rows_it_cannot_take(copies, persistent, out_dtype, tma):
    # K = 48: A and Bᵀ as given, by TMA; C's rows of 70 outputs are not 16-byte multiples,
    # so the tiles go out by masked stores, nothing copied
    _check(100, 70, 48, rowwise=True, persistent=persistent, out_dtype=out_dtype, tma=tma)
    assert copies == []


def test_no_copies_when_aligned_or_tma_is_refused(copies):
    _check(100, 72, 48)                       # aligned: TMA as given
    _check(100, 70, 45, tma=False)            # pointer loads asked for: no copy
    assert copies == []


@pytest.mark.parametrize("persistent,split_k", [(False, 1), (True, 1), (False, 2)])
@pytest.mark.parametrize("tma", [None, True, False])
def test_a_column_major_out_is_written_where_it_lies(persistent, split_k, tma):
    """An out that is column-major (out = buffer.T), of a NaN buffer one row longer than it
    needs: TMA cannot store it, so the tiles go out by stores with both of C's strides (a
    store that took C's columns as contiguous summed into the wrong places). The product
    matches float64 and the buffer's last row keeps its NaN."""
    from swizzlekit.kernels.triton.scaled import TOLERANCE, scaled_matmul
    from swizzlekit.lab.verify import relative_error, scaled_operands

    if persistent and tma is False:
        pytest.skip("persistent grids are TMA's")
    m, n, k = 100, 70, 48
    a, b, sa, sb, ref = scaled_operands(m, n, k, "cpu", True)
    buffer = torch.full((n + 1, m), float("nan"), dtype=torch.bfloat16)
    out = buffer[:n].T
    assert scaled_matmul(a, b, sa, sb, "grouped", out=out, tma=tma, persistent=persistent,
                         split_k=split_k) is out
    assert buffer[n].isnan().all()
    err = relative_error(out, ref=ref)
    assert err == err and err < TOLERANCE["bfloat16"], err


def test_scaled_describe_reads_the_kept_route(monkeypatch):
    """``scaled_describe`` gives the route and plan a repeat call of the same arguments would
    follow (here put by hand, as a GPU call keeps them), None for any other call, and answers
    bad arguments at the door as ``scaled_matmul`` does."""
    from types import SimpleNamespace

    from swizzlekit.kernels.triton import scaled
    from swizzlekit.kernels.triton.routes import Route, RouteCache, fingerprint

    monkeypatch.setattr(scaled, "ROUTES", RouteCache(8))
    monkeypatch.setattr(scaled, "PLANS", scaled.PlanCache(8))
    a, b = _ab(m=300, n=64, k=1008)
    sa, sb = torch.ones(()), torch.ones(())
    scaled.ROUTES.put(fingerprint((a, b, sa, sb, None), (None, "auto", False, None, 2)),
                      Route(("sig",), 2, True, True, pad=True, c_ptr=True))
    scaled.PLANS.put(("sig",), SimpleNamespace(
        config={"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 128},
        info={"num_stages": 4, "num_warps": 4, "ORDER": "grouped", "P": 8}))
    a2, b2 = _ab(m=300, n=64, k=1008)                # fresh tensors of the same layout
    assert scaled.scaled_describe(a2, b2, sa, sb, split_k=2) == {
        "kernel": "tma", "config": "128x64x128/s4/w4", "order": "grouped", "p": 8,
        "split_k": 2, "copies": "pad", "b_pitch_copy": False, "b_kmajor_copy": False,
        "c_masked": True, "c_registers": False, "tail_split": False}
    assert scaled.scaled_describe(a, b, sa, sb) is None                  # split_k=None
    assert scaled.scaled_describe(a, b, sa, sb, split_k=2, tma=False) is None
    for call, message in [(lambda: scaled.scaled_describe(a, "b", sa, sb), "b"),
                          (lambda: scaled.scaled_describe(a, b, sa, sb, "zigzag"), "hilbert"),
                          (lambda: scaled.scaled_describe(a, b, sa, sb, tma="on"), "tma"),
                          (lambda: scaled.scaled_describe(a, b, sa, sb, split_k=0), "split_k")]:
        with pytest.raises(SwizzleKitError, match=message):
            call()


@pytest.mark.parametrize("kept", range(5), ids=["triton", "own", "own_stream_k", "swapped",
                                                 "swapped_stream_k"])
def test_the_cutlass_route_keeps_what_the_first_call_timed(monkeypatch, kept):
    """Where the route holds (put by hand here: it needs an sm_90 GPU), the first call runs
    its Triton plan and times it against each CUTLASS candidate (64 rows: its own tiles and
    the swapped build, each in both schedules); later calls of the same fingerprint run what
    it kept, in the tiles and schedule kept, and ``scaled_describe`` names it. CUTLASS is a
    stub here that writes the float64 product, so each call's sum is checked."""
    from swizzlekit.kernels.cuda.cutlass_fp8 import config
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.kernels.triton.clustered import fp8_candidates
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    monkeypatch.setattr(scaled, "CLUSTERED", scaled.PlanCache(8))
    monkeypatch.setattr(scaled, "fp8_clustered_route", lambda *args: True)
    calls, timed = [], []
    a, b, sa, sb, ref = scaled_operands(64, 48, 64, "cpu")
    candidates = fp8_candidates(64)
    assert len(candidates) == 4 and "swap-ab" in candidates[2][0]

    def cutlass(a_, b_, sa_, sb_, *, out=None, stream_k=False, tiles=None):
        calls.append((tiles, stream_k))
        return out.copy_(ref)

    def pick(triton_call, *cutlass_calls, names=None, builds=()):
        timed.append(len(cutlass_calls))
        assert names[0] == "triton" and len(names) == len(cutlass_calls) + 1
        assert len(builds) == len(dict.fromkeys(t for t, _ in candidates))                       # each library once
        for call in (triton_call, *cutlass_calls):
            call()
        return kept

    def launch(a_, b_, sa_, sb_, out, stream_k, tiles):  # a repeat call: no door
        calls.append((tiles, stream_k))
        return out.copy_(ref)

    monkeypatch.setattr(scaled, "cutlass_scaled_matmul", cutlass)
    monkeypatch.setattr(scaled, "launch_scaled", launch)
    monkeypatch.setattr(scaled, "pick_clustered", pick)
    for call in range(3):
        out = poisoned(64, 48, torch.bfloat16, "cpu")
        assert scaled.scaled_matmul(a, b, sa, sb, out=out) is out
        err = relative_error(out, ref=ref)
        assert err == err and err < scaled.TOLERANCE["bfloat16"], (call, err)
    assert timed == [4]                                   # timed once, five candidates
    assert calls == list(candidates) + [candidates[kept - 1]] * 2 * bool(kept)
    described = scaled.scaled_describe(a, b, sa, sb, out=out)
    if kept:
        assert described["kernel"] == "cutlass"
        assert described["config"] == config(*candidates[kept - 1])
    else:
        assert described is None or described["kernel"] != "cutlass"
