"""swizzlekit.kernels.matmul in Triton's interpreter on CPU tensors (CI tier 2): ragged
shapes, transposed inputs, every order, persistent schedules; NaN-poisoned outputs."""

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="interpreter tier: runs where there is no GPU")

from hypothesis import given, settings, strategies as st  # noqa: E402

from swizzlekit.cta import ORDERS  # noqa: E402
from swizzlekit.errors import SwizzleKitError  # noqa: E402

ORDER_CASES = [(name, {}) for name in ORDERS] + [("grouped", {"group": 2, "along": "n"}),
                                                  ("strip", {"width": 2}),
                                                  ("cutlass", {"log_tile": 2, "raster": "m"}),
                                                  ("zlayer", {"layers": 3})]


@pytest.mark.parametrize("name,params", ORDER_CASES, ids=str)
def test_every_order_ragged(name, params):
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(100, 70, 45, torch.float32, name, device="cpu", precision="ieee", **params)
    assert err == err and err < TOLERANCE["ieee"]


@pytest.mark.parametrize("ta,tb", [(False, True), (True, False), (True, True)])
@pytest.mark.parametrize("dtype,precision,bound", [(torch.float32, "tf32", "tf32"),
                                                   (torch.float16, "tf32", "float16")])
def test_transposed_inputs(ta, tb, dtype, precision, bound):
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(65, 96, 64, dtype, "grouped", device="cpu", precision=precision,
                transpose_a=ta, transpose_b=tb, group=2)
    assert err == err and err < TOLERANCE[bound]


@pytest.mark.parametrize("name", ["grouped", "hilbert", "cutlass"])
def test_persistent(name):
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(130, 97, 33, torch.float32, name, device="cpu", precision="ieee",
                persistent=True)
    assert err == err and err < TOLERANCE["ieee"]


def test_out_and_edge_sizes():
    from swizzlekit.kernels.triton.matmul import matmul

    a, b = torch.randn(5, 0), torch.randn(0, 7)
    assert torch.equal(matmul(a, b), torch.zeros(5, 7))
    a, b = torch.randn(3, 4), torch.randn(4, 2)
    out = torch.full((3, 2), float("nan"))
    assert matmul(a, b, out=out, precision="ieee") is out
    assert torch.allclose(out, a @ b, atol=1e-5)


@pytest.mark.parametrize("call, message", [
    (lambda m: m(torch.randn(3, 4), torch.randn(5, 2)), "do not multiply"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2).half()), "dtypes"),
    (lambda m: m(torch.randn(3, 4).int(), torch.randn(4, 2).int()), "dtypes"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), order="zorder"), "unknown order 'zorder'"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), order="grouped", width=2), "no parameter"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), precision="tf16"), "precision 'tf16'"),
    (lambda m: m(torch.randn(3, 4, 1), torch.randn(4, 2)), "2-D"),
    (lambda m: m(torch.randn(3, 4).bfloat16(), torch.randn(4, 2).bfloat16()), "bf16"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), out=torch.empty(2, 2)), "out must be"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), split_k=0), "split_k must be"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), split_k=2.0), "split_k must be"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), split_k=2, persistent=True),
     "does not combine"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), tma="yes"), "tma must be None .*True or False"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), tma=1), "tma must be"),
    (lambda m: m(torch.randn(3, 4), torch.randn(4, 2), persistent="yes"),
     "persistent must be True or False"),
    # a 65536 x 32768 output (broadcast views: nothing allocated) split 2 ways
    (lambda m: m(torch.randn(1, 4).expand(2**16, 4), torch.randn(4, 1).expand(4, 2**15),
                 split_k=2), r"at most 2147483647 \(2\*\*31 - 1, 8 GiB\)"),
])
def test_bad_input(call, message):
    from swizzlekit.kernels.triton.matmul import matmul

    with pytest.raises(SwizzleKitError, match=message):
        call(matmul)


@pytest.mark.parametrize("name", ["row", "grouped", "hilbert", "zlayer"])
@pytest.mark.parametrize("persistent", [False, True])
def test_tma_descriptors(name, persistent):
    """Rows of 72 fp32 / 48 fp32 are 16-byte aligned: the TMA kernel, ragged at every edge."""
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(100, 72, 48, torch.float32, name, device="cpu", precision="ieee", tma=True,
                persistent=persistent)
    assert err == err and err < TOLERANCE["ieee"]


@pytest.mark.parametrize("split", [2, 3, 8])
@pytest.mark.parametrize("tma,order", [(False, "grouped"), (True, "hilbert"), (False, "zlayer")])
def test_split_k_ragged(split, tma, order):
    """K split S ways (7 steps of 32 into shares of 4/3/1, some empty) into fp32 planes and
    added by the second pass: ragged M, N and K, TMA and pointer loads, poisoned output."""
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(70, 72, 200, torch.float32, order, device="cpu", precision="ieee", tma=tma,
                split_k=split)
    assert err == err and err < TOLERANCE["ieee"]


def test_split_k_in_half_precision():
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(33, 96, 130, torch.float16, "grouped", device="cpu", split_k=4,
                transpose_b=True)
    assert err == err and err < TOLERANCE["float16"]


def test_tma_refuses_unaligned_rows():
    from swizzlekit.kernels.triton.matmul import matmul

    with pytest.raises(SwizzleKitError, match="16-byte aligned"):
        matmul(torch.randn(8, 5), torch.randn(5, 8), tma=True)


@pytest.mark.parametrize("m,n,k", [(70, 90, 50), (33, 129, 65)])
def test_the_baseline_kernel_on_ragged_shapes(m, n, k):
    """The tutorial-shaped baseline (kernels/triton/baseline.py) against float64, poisoned
    output, in the interpreter (fp16)."""
    from swizzlekit.kernels.triton.baseline import matmul_baseline
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    a, b = random_operands(m, n, k, torch.float16, "cpu")
    c = poisoned(m, n, torch.float16, "cpu")
    matmul_baseline(a, b, out=c)
    err = relative_error(c, a, b)
    assert err == err and err < 1e-2


@pytest.fixture
def copies(monkeypatch):
    """Every problem counts as large enough to copy (PAD_MIN_MNK 1); returns the list of
    tensors matmul copied into aligned buffers."""
    from swizzlekit.kernels.triton import copies as rules, matmul

    made = []
    padded_call = rules._padded_call

    def spy(a, b, c, *args):
        out = padded_call(a, b, c, *args)
        made.extend(t for t, given in zip(out, (a, b, c)) if t.data_ptr() != given.data_ptr())
        return out

    monkeypatch.setattr(rules, "PAD_MIN_MNK", 1)
    monkeypatch.setattr(matmul, "_padded_call", spy)
    return made


@pytest.mark.parametrize("ta,tb", [(False, False), (False, True), (True, False)])
@pytest.mark.parametrize("dtype,precision,bound,tma", [(torch.float32, "tf32", "tf32", None),
                                                       (torch.float16, "tf32", "float16", False),
                                                       (torch.float32, "ieee", "ieee", None)])
def test_unaligned_rows_run_on_aligned_copies(copies, ta, tb, dtype, precision, bound, tma):
    """Rows of 37 and 29 elements (not 16-byte multiples), into an out whose rows are a
    one-element-offset view: an fp32 call (or a 16-bit one with tma=False) copies A, B and C's
    buffer into aligned ones, zero-padded to K = 48 and N = 32, and the result, written back
    into out, matches float64."""
    from swizzlekit.kernels.triton.copies import _aligned
    from swizzlekit.kernels.triton.matmul import TOLERANCE, matmul
    from swizzlekit.lab.verify import random_operands, relative_error

    m, n, k = 33, 29, 37
    a, b = random_operands(m, n, k, dtype, "cpu", ta, tb)
    big = torch.full((m, n + 1), float("nan"), dtype=dtype)
    out = big[:, 1:]
    assert matmul(a, b, "grouped", out=out, precision=precision, tma=tma, group=2) is out
    assert len(copies) == 3 and all(_aligned(t) for t in copies)
    assert sorted(tuple(t.shape) for t in copies) == [(33, 32), (33, 48), (48, 32)]
    a2 = next(t for t in copies if tuple(t.shape) == (33, 48))
    b2 = next(t for t in copies if tuple(t.shape) == (48, 32))
    assert not a2[:, 37:].any() and not b2[37:].any() and not b2[:, 29:].any()
    err = relative_error(out, a, b)
    assert err == err and err < TOLERANCE[bound]


@pytest.fixture
def tma_copies(monkeypatch):
    """Every problem counts as large enough to copy (COPY_MIN_MNK and COPY_B_MIN_M 1).
    Returns a record: the pairs (given, copy) of the operands the 16-bit call copied for TMA,
    and the number of TMA descriptors each launch built (2: C written by masked stores)."""
    from swizzlekit.kernels.triton import copies as rules, matmul

    made = {"copies": [], "descriptors": []}
    tma_copies_, descriptors = rules._tma_copies, matmul._descriptors

    def spy(a, b, print_=None):
        out = tma_copies_(a, b, print_)
        made["copies"].extend((given, t) for t, given in zip(out, (a, b))
                              if t.untyped_storage().data_ptr()
                              != given.untyped_storage().data_ptr())
        return out

    def count(tensors, *args):
        made["descriptors"].append(len(tensors))
        return descriptors(tensors, *args)

    monkeypatch.setattr(rules, "COPY_MIN_MNK", 1)
    monkeypatch.setattr(rules, "COPY_B_MIN_M", 1)
    monkeypatch.setattr(matmul, "_tma_copies", spy)
    monkeypatch.setattr(matmul, "_descriptors", count)
    return made


@pytest.mark.parametrize("ta,tb,copied", [(False, False, "AB"), (False, True, "AB"),
                                          (True, False, "AB"), (False, "aligned", "A"),
                                          ("aligned", False, "B")])
def test_16bit_unaligned_rows_copy_only_what_tma_cannot_read(tma_copies, ta, tb, copied):
    """A 16-bit call whose A or B rows TMA cannot read (37 and 29 elements, or A
    column-major) copies just those into rows of 128 bytes, viewed at their own size (K and N
    as given), and the TMA kernel writes C by masked stores straight into an out whose rows
    are a one-element-offset view: out's first column, outside the view, keeps its NaN, and
    the result matches float64."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.call import _tma_ok
    from swizzlekit.kernels.triton.copies import PITCH_BYTES
    from swizzlekit.lab.verify import random_operands, relative_error

    m, n, k = 33, 29, 37
    a, b = random_operands(m, n, k, torch.float16, "cpu", ta is True, tb is True)
    if ta == "aligned":                           # rows of 48: TMA reads A as given
        a = torch.randn(m, 48, dtype=torch.float16)[:, :k]
    if tb == "aligned":
        b = torch.randn(k, 32, dtype=torch.float16)[:, :n]
    big = torch.full((m, n + 1), float("nan"), dtype=torch.float16)
    out = big[:, 1:]
    assert mm.matmul(a, b, "grouped", out=out, group=2) is out
    made = tma_copies["copies"]
    assert "".join("A" if given is a else "B" for given, _ in made) == copied
    for given, t in made:
        assert t.shape == given.shape and _tma_ok(t.T if t.stride(0) == 1 else t)
        assert max(t.stride()) * 2 % PITCH_BYTES == 0 and torch.equal(t, given)
    assert set(tma_copies["descriptors"]) == {2}          # A and B: C by masked stores
    assert big[:, 0].isnan().all()
    err = relative_error(out, a, b)
    assert err == err and err < mm.TOLERANCE["float16"]


@pytest.mark.parametrize("n,k", [(29, 37), (32, 37), (29, 40), (8, 9), (24, 24)])
def test_kernels_configs_names_the_copies_the_call_makes(tma_copies, n, k):
    """``kernels configs`` (explain.autotune_plan) restates the copy rule; on the call it
    describes (fresh row-major fp16 operands, large enough to copy), the operands it says are
    copied are those the call copies, and C goes by masked stores where it says so."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.explain import autotune_plan

    m = 33
    plan = autotune_plan(m, n, k, "fp16")
    a, b = torch.randn(m, k, dtype=torch.float16), torch.randn(k, n, dtype=torch.float16)
    mm.matmul(a, b, "grouped", group=2)
    made = "".join("A" if given is a else "B" for given, _ in tma_copies["copies"])
    assert made == plan.copied and plan.kernel == "tma"
    assert set(tma_copies["descriptors"]) == {2 if plan.c_masked else 3}


@pytest.mark.parametrize("split_k,persistent", [(1, False), (2, False), (1, True)])
@pytest.mark.parametrize("layout", ["offset rows", "column-major"])
def test_tma_writes_a_c_it_cannot_store_by_masked_stores(tma_copies, split_k, persistent,
                                                        layout):
    """A and B that TMA reads as given, into an out TMA cannot store: rows 29 elements (58
    bytes) apart, offset by one element, or column-major. No copies, TMA loads, C by masked
    stores with both strides (two descriptors), whole or split over K or persistent; nothing
    written outside out, and the product matches float64."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned_view, relative_error

    m, n, k = 70, 29, 96
    a = torch.randn(m, k, dtype=torch.float16)
    b = torch.randn(k, 32, dtype=torch.float16)[:, :n]
    out, outside = poisoned_view(m, n, torch.float16, "cpu", layout)
    assert mm.matmul(a, b, "grouped", out=out, split_k=split_k, persistent=persistent,
                     group=2) is out
    assert tma_copies["copies"] == [] and set(tma_copies["descriptors"]) == {2}
    assert outside.isnan().all()
    err = relative_error(out, a, b)
    assert err == err and err < mm.TOLERANCE["float16"]


def test_aligned_or_small_problems_are_not_copied():
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.copies import _copy_first

    a, b = torch.randn(33, 37), torch.randn(37, 29)
    assert _copy_first(a, b, 33, 29, 37, None) == ""            # below PAD_MIN_MNK
    assert _copy_first(a, b, 2**11, 2**10, 2**10, None) == "pad"
    assert _copy_first(a, b, 2**11, 2**10, 2**10, True) == ""   # forced TMA: refused instead
    h, hb = a.half(), b.half()
    assert _copy_first(h, hb, 2**9, 2**10, 2**10, None) == "copies"   # 2^29: COPY_MIN_MNK
    assert _copy_first(h, hb, 2**9, 2**10, 2**10, False) == ""        # tma=False: PAD_MIN_MNK
    assert _copy_first(h, hb, 32, 2**13, 2**13, None) == ""           # B for 32 rows: not
    assert _copy_first(torch.randn(33, 32).half(), torch.randn(32, 24).half(), 2**11, 2**10,
                       2**10, None) == ""                             # aligned
    assert _copy_first(h, torch.randn(37, 24).half(), 32, 2**13, 2**13, None) == "copies"
    a, b = torch.randn(33, 40), torch.randn(40, 24)
    assert _copy_first(a, b, 2**11, 2**10, 2**10, None) == ""     # aligned already
    assert (mm.PAD_MIN_MNK, mm.COPY_MIN_MNK, mm.COPY_B_MIN_M) == (2**31, 2**28, 48)


@pytest.mark.parametrize("shape_a,shape_b,b_kmajor,copied", [
    ((33, 37), (37, 29), False, "AB"), ((33, 40), (40, 29), False, "B"),
    ((33, 37), (37, 24), False, "A"), ((33, 37), (37, 29), True, "AB"),
    ((33, 37), (37, 24), True, "AB"), ((33, 40), (40, 29), True, "")])
def test_repeat_copies_for_tma_go_straight_to_their_plan(monkeypatch, shape_a, shape_b,
                                                         b_kmajor, copied):
    """A call's fingerprint whose copies for TMA were made by a plan (on a GPU; here a
    stand-in plan that copies on the host, by the raw addresses a plan is launched on) keeps
    a copier: a repeat call with fresh operands of the same layout copies the same operands
    by that plan, without pad_pair's checks, into one buffer whose copies have the shapes
    and strides of the first call's, 16-byte aligned bases, and the operands' values."""
    import ctypes

    from swizzlekit.kernels.triton import copies as rules, pad
    from swizzlekit.kernels.triton.routes import fingerprint

    sources = {}

    def stand_in(a, a2, b, b2):                   # the copy kernel, on device addresses
        for src, dst in ((a, a2), (b, b2)):
            t = sources[src]
            rows, cols = rules._pitch_shape(t)
            raw = (ctypes.c_char * (rows * cols * 2)).from_address(dst)
            out = torch.frombuffer(raw, dtype=torch.float16).view(rows, cols)
            out.zero_()
            out[:, :t.shape[1]] = t

    def operands():
        a = torch.randn(*shape_a, dtype=torch.float16)
        b = torch.randn(*shape_b, dtype=torch.float16)
        b = b.T.contiguous().T if b_kmajor else b
        sources.update({a.data_ptr(): a, b.data_ptr(): b.T if b_kmajor else b})
        return a, b

    monkeypatch.setattr(pad, "_REPEATS", pad.PlanCache(8))
    monkeypatch.setattr(rules, "_COPIERS", None)
    a, b = operands()
    b_rows = b.T if b_kmajor else b
    for t in (a, b_rows):                         # plans for the copies the first call makes
        pad._REPEATS.put(pad._print(t, rules._pitch_shape(t), None, (0, 0)), stand_in)
    if copied == "AB":
        pad._REPEATS.put(pad._print(a, rules._pitch_shape(a), b_rows,
                                    rules._pitch_shape(b_rows)), stand_in)
    print_ = fingerprint((a, b), ("test",))
    first = rules._tma_copies(a, b, print_)
    assert (rules.copiers().get(print_) is not None) == bool(copied)
    calls = []
    monkeypatch.setattr(pad, "pad_pair", lambda *args: calls.append(args))
    a, b = operands()
    again = rules._tma_copies(a, b, print_)
    assert calls == [] or not copied
    for x, y, given in zip(first, again, (a, b)):
        assert x.shape == y.shape == given.shape and x.stride() == y.stride()
        assert torch.equal(y, given) and y.data_ptr() % 16 == 0
        assert (y.data_ptr() == given.data_ptr()) == (("A" if given is a else "B") not in copied)
    if copied == "AB":                            # both copies in one buffer, B's after A's
        assert again[1].data_ptr() - again[0].data_ptr() == rules.copiers().get(print_).b_at


@pytest.mark.parametrize("args, message", [
    ((1, 64, 64, 64, True, True), "elem_bytes 1 is not valid; choose one of: 2, 4"),
    ((2, 0, 64, 64, True, True), "M must be at least 1"),
    ((2, 64, 64.0, 64, True, True), "N must be an integer"),
    ((2, 64, 64, 64, 1, True), "copy_a must be True or False"),
    ((2, 64, 64, 64, True, True, "auto"), "tma must be None .*True or False"),
])
def test_copy_route_refuses_bad_arguments(args, message):
    from swizzlekit.kernels.triton.copies import copy_route

    with pytest.raises(SwizzleKitError, match=message):
        copy_route(*args)


_SIZES = [1, 15, 16, 63, 64, 65, 2**10, 2**11 - 1, 2**12, 2**14 + 3]


@pytest.mark.parametrize("elem", [2, 4])
@pytest.mark.parametrize("tma", [None, True, False])
def test_copy_route_over_a_grid(elem, tma):
    """copy_route on every M, N, K of a grid around its thresholds and every pair of ragged
    operands: nothing to copy or tma=True copies nothing; only 16-bit calls with tma=None copy
    for TMA, and never B below COPY_B_MIN_M rows; both rules grow with M*N*K (a larger M, N
    or K never takes the copies away)."""
    from swizzlekit.kernels.triton.copies import COPY_B_MIN_M, copy_route

    for copy_a in (False, True):
        for copy_b in (False, True):
            for M in _SIZES:
                for N in _SIZES:
                    for K in _SIZES:
                        got = copy_route(elem, M, N, K, copy_a, copy_b, tma)
                        assert got in ("", "copies", "pad")
                        if tma is True or not (copy_a or copy_b):
                            assert got == ""
                        assert (got == "copies") <= (elem == 2 and tma is None)
                        assert not (got == "copies" and copy_b and M < COPY_B_MIN_M)
                        if got:
                            assert copy_route(elem, 2 * M, N, K, copy_a, copy_b, tma) == got
                            assert copy_route(elem, M, 2 * N, K, copy_a, copy_b, tma) == got
                            assert copy_route(elem, M, N, 2 * K, copy_a, copy_b, tma) == got


def test_forced_tma_still_refuses_unaligned_rows(copies):
    from swizzlekit.kernels.triton.matmul import matmul

    with pytest.raises(SwizzleKitError, match="16-byte aligned"):
        matmul(torch.randn(8, 5), torch.randn(5, 8), tma=True)
    assert copies == []


@pytest.mark.parametrize("copy_from_m,swapped", [(None, True), (1, False)])
@pytest.mark.parametrize("persistent,split_k", [(False, None), (True, None), (False, 3)])
def test_tf32_row_major_b_swaps_or_copies(monkeypatch, copy_from_m, swapped, persistent,
                                          split_k):
    """TF32 with a row-major B: below tf32_copy_min_m the TMA kernel computes Cᵀ = Bᵀ Aᵀ on B
    as given (its swapped configs only); from it, B is copied K-major and the plain configs
    run. Both match float64 on a ragged shape into a poisoned output."""
    from swizzlekit.kernels.triton import matmul as mm, matmul_configs as mc
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    if copy_from_m is not None:
        monkeypatch.setattr(mc, "TF32_COPY_MIN_M", copy_from_m)
    a, b = random_operands(70, 44, 76, torch.float32, "cpu")    # rows 16-byte aligned: TMA
    out = poisoned(70, 44, torch.float32, "cpu")
    mm.matmul(a, b, "grouped", out=out, persistent=persistent, split_k=split_k, group=2)
    assert mm._matmul_tma_kernel.best_config.kwargs["SWAP_AB"] is swapped
    err = relative_error(out, a, b)
    assert err == err and err < mm.TOLERANCE["tf32"]


@pytest.mark.parametrize("k,copies", [(76, 1), (75, 0)])
def test_tf32_copies_b_only_where_tma_reads_the_copy(monkeypatch, k, copies):
    """B's K-major copy is made only where TMA then reads it (rows of K 4-byte elements on
    16 bytes), so a copied call's route is always a TMA route; elsewhere B is read as given.
    Both match float64 into a poisoned output."""
    from swizzlekit.kernels.triton import matmul as mm, matmul_configs as mc
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    made = []
    monkeypatch.setattr(mc, "TF32_COPY_MIN_M", 1)
    monkeypatch.setattr(mm, "kmajor_copy", lambda b: made.append(b.shape) or b.T.contiguous())
    a, b = random_operands(70, 44, k, torch.float32, "cpu")
    out = poisoned(70, 44, torch.float32, "cpu")
    mm.matmul(a, b, "grouped", out=out, group=2)
    assert len(made) == copies
    err = relative_error(out, a, b)
    assert err == err and err < mm.TOLERANCE["tf32"]


@pytest.mark.parametrize("dtype,precision,tb,m", [(torch.float16, "tf32", False, 200),
                                                  (torch.float32, "ieee", False, 40),
                                                  (torch.float32, "tf32", True, 40),
                                                  (torch.float16, "tf32", True, 40)])
def test_other_calls_take_the_plain_configs(dtype, precision, tb, m):
    """16-bit past SWAP_16BIT_MAX_M rows, IEEE fp32 and a K-major B run the unswapped configs
    (wgmma takes them as they are)."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    a, b = random_operands(m, 48, 64, dtype, "cpu", transpose_b=tb)
    out = poisoned(m, 48, dtype, "cpu")
    mm.matmul(a, b, out=out, precision=precision, tma=True)
    assert mm._matmul_tma_kernel.best_config.kwargs["SWAP_AB"] is False
    bound = precision if dtype == torch.float32 else str(dtype).split(".")[1]
    assert relative_error(out, a, b) < mm.TOLERANCE[bound]


@pytest.mark.parametrize("tma", [True, False])
@pytest.mark.parametrize("dtype", [torch.float16])          # the interpreter has no bf16
@pytest.mark.parametrize("split_k", [None, 2])
def test_16bit_few_rows_swap(tma, dtype, split_k):
    """16-bit with at most SWAP_16BIT_MAX_M rows and B row-major: both kernels compute
    Cᵀ = Bᵀ Aᵀ (their swapped configs only), on a ragged shape into a poisoned output."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.matmul_configs import SWAP_16BIT_MAX_M
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    m = SWAP_16BIT_MAX_M - 27
    a, b = random_operands(m, 56, 72, dtype, "cpu")
    out = poisoned(m, 56, dtype, "cpu")
    mm.matmul(a, b, "snake", out=out, tma=tma, split_k=split_k)
    kernel = mm._matmul_tma_kernel if tma else mm._matmul_kernel
    assert kernel.best_config.kwargs["SWAP_AB"] is True
    assert relative_error(out, a, b) < mm.TOLERANCE[str(dtype).split(".")[1]]


def test_swap_rule_and_smem_count():
    """The swapped configs are kept exactly for TF32 with B row-major, and for 16-bit with B
    row-major up to SWAP_16BIT_MAX_M rows. Shared memory is counted
    at least as high as Triton 3.6 allocated: on the H200 it asked 262192 bytes for the
    swapped 256x128x32 config in 3 stages in a kernel looping over tiles (and refused it), and
    compiled for sm_90 it allocated 131120 for the same config, one tile per program."""
    import triton

    from swizzlekit.gpus import gpu
    from swizzlekit.kernels.triton.matmul_configs import _swap_ab
    from swizzlekit.kernels.triton.configs import _fitting
    from swizzlekit.kernels.triton.footprint import config_smem as _smem

    cases = [(4, "tf32", False, 4096), (4, "tf32", True, 4096), (4, "ieee", False, 16),
             (2, "tf32", False, 4096), (2, "tf32", False, 128), (2, "tf32", False, 129),
             (2, "tf32", True, 16)]
    assert [_swap_ab(*c) for c in cases] == [True, False, False, False, True, False, False]
    big = triton.Config({"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 32, "SWAP_AB": True},
                        num_stages=3, num_warps=8)
    limit = gpu("h200").smem_per_block
    assert _smem(big, 4, 4) >= 262192 > limit
    assert 131120 <= _smem(big, 4, 4, single=True) <= limit
    small = triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "SWAP_AB": True},
                          num_stages=4, num_warps=8)
    assert _fitting([big, small], 4096, 4, 4, single=True) == [big, small]
    assert _fitting([big, small], 4096, 4, 4) == [small]


def test_one_tile_branch(monkeypatch):
    """The TMA kernel's one-tile-per-program branch (swapped tiles of ONE_TILE_AREA or more,
    grids not persistent), reached here by lowering the area to the interpreter's tile."""

    from swizzlekit.kernels.triton import matmul as mm, tma_kernel
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    monkeypatch.setattr(tma_kernel, "ONE_TILE_AREA", 1)
    a, b = random_operands(70, 44, 76, torch.float32, "cpu")
    out = poisoned(70, 44, torch.float32, "cpu")
    mm.matmul(a, b, "hilbert", out=out)
    assert mm._matmul_tma_kernel.best_config.kwargs["SWAP_AB"] is True
    assert relative_error(out, a, b) < mm.TOLERANCE["tf32"]


@pytest.mark.parametrize("M", [1, 64, 128, 129, 256, 257, 512, 513, 4096])
@pytest.mark.parametrize("elem", [2, 4])
def test_deep_pipelines_only_for_few_rows(M, elem, monkeypatch):
    """The deep-pipeline configs (configs.DEEP_TILES, DEEP_SWAPPED) reach the autotuner exactly
    for 16-bit calls of M <= DEEP_MAX_M (in fp32 none fits the shared memory); above it, the
    configs kept are the same as without them. (The GPU's lists: the interpreter has one tile.)"""
    from swizzlekit.kernels.triton import matmul_configs as mc
    from swizzlekit.kernels.triton.configs import DEEP_MAX_M, DEEP_SWAPPED, DEEP_TILES, SMALL_M

    monkeypatch.setattr(mc, "_INTERPRET", False)
    mc._labels.cache_clear()
    label = "{}x{}x{}/s{}/w{}".format
    deep = {label(*t) for t in DEEP_TILES + DEEP_SWAPPED}
    try:
        for swap in (False, True):
            kept = mc.config_labels(elem, M, swap, True)
            got = {k.removesuffix("/swap") for k in kept} & deep
            assert bool(got) == (elem == 2 and M <= DEEP_MAX_M)
            if elem == 2 and M <= DEEP_MAX_M and not swap:      # the narrow ones by SMALL_M too
                assert got == {label(*t) for t in DEEP_TILES
                               if M <= SMALL_M or t[0] * t[1] >= 64 * 128}
            if M > DEEP_MAX_M:                                 # as if there were none
                monkeypatch.setattr(mc, "DEEP_TILES", [])
                monkeypatch.setattr(mc, "DEEP_SWAPPED", [])
                mc._labels.cache_clear()
                assert mc.config_labels(elem, M, swap, True) == kept
                monkeypatch.undo()
                monkeypatch.setattr(mc, "_INTERPRET", False)
                mc._labels.cache_clear()
    finally:
        mc._labels.cache_clear()


@pytest.mark.parametrize("dtype,bound", [(torch.float16, "float16"), (torch.float32, "ieee")])
def test_b_rows_off_a_128_byte_pitch_are_read_from_a_pitched_copy(monkeypatch, dtype, bound):
    """From PITCH_MIN_MNK and pitch_min_m rows on (both lowered here), a TMA call whose
    row-major B has rows that do not all start on 64-byte boundaries reads B from a copy in
    128-byte rows; the product still matches float64, and an aligned pitch is read as it is."""
    from swizzlekit.kernels.triton import copies
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import random_operands, relative_error

    monkeypatch.setattr(copies, "PITCH_MIN_MNK", 0)
    monkeypatch.setattr(copies, "PITCH_PAYOFF", {"h100-sxm": 0, "h200": 0, "h100-pcie": 0})
    made = []
    real = mm._pitched
    monkeypatch.setattr(mm, "_pitched", lambda b: made.append(real(b)) or made[-1])
    precision = "ieee" if dtype == torch.float32 else "tf32"
    for n, copied in ((40, True), (32 * 4 // dtype.itemsize, False)):   # 80 / 128 bytes
        made.clear()
        a, b = random_operands(48, n, 32, dtype, "cpu")
        out = mm.matmul(a, b, "grouped", precision=precision, tma=True, group=2)
        assert bool(made) == copied
        if copied:
            b2 = made[0]
            assert b2.shape == b.shape and torch.equal(b2, b)
            assert b2.stride(0) * b2.element_size() % copies.PITCH_BYTES == 0
        err = relative_error(out, a, b)
        assert err == err and err < mm.TOLERANCE[bound]


def test_pitched_copies_hold_the_values_in_128_byte_rows():
    from swizzlekit.kernels.triton.copies import PITCH_BYTES, _pitch_first, _pitched

    b = torch.randn(7, 45, dtype=torch.float16)
    b2 = _pitched(b)
    assert torch.equal(b2, b) and b2.stride() == (64, 1) and b2.stride(0) * 2 % PITCH_BYTES == 0
    assert _pitch_first(b, 2**12, 2**11, 2**11) and not _pitch_first(b, 8, 8, 8)
    assert not _pitch_first(torch.randn(7, 32, dtype=torch.float16), 2**12, 2**11, 2**11)
    assert not _pitch_first(b.T.contiguous().T, 2**12, 2**11, 2**11)     # K-major: not rows


def test_the_pitched_copy_pays_from_the_rows_the_card_gives():
    """pitch_copy: misaligned rows only, from PITCH_MIN_MNK, and from pitch_min_m rows, which
    follow the preset's peak over bandwidth and its measured pay-off (a preset without one
    takes the H100's) and the element size."""
    from swizzlekit.kernels.triton.copies import PITCH_PAYOFF, pitch_copy, pitch_min_m
    from swizzlekit.gpus import GPUS, gpu

    for name in ("h100-sxm", "h200", "h100-pcie"):
        card = gpu(name)
        payoff = PITCH_PAYOFF.get(name, PITCH_PAYOFF["h100-sxm"])
        want = 2 * card.peak_tflops["bf16"] * 1e3 / card.dram_gbps * payoff
        m = pitch_min_m(2, name)
        assert m - 1 < want <= m
        assert pitch_copy(m, 5000, 4000, 10000, 2, name)
        assert not pitch_copy(m - 1, 5000, 4000, 10000, 2, name)
        assert not pitch_copy(m, 5120, 4000, 10240, 2, name)         # rows on 64-byte lines
        assert not pitch_copy(m, 50, 40, 100, 2, name)               # below PITCH_MIN_MNK
    assert "h100-pcie" not in PITCH_PAYOFF and set(PITCH_PAYOFF) < set(GPUS)


@pytest.mark.parametrize("M,N,deep", [(1024, 1024, True), (2048, 1024, True), (1024, 2048, True),
                                      (2048, 2048, False), (1024, 16384, False), (513, 4096, False)])
def test_deep_pipelines_for_few_tiles_past_the_row_limit(M, N, deep, monkeypatch):
    """Past DEEP_MAX_M rows the prune still offers the deep pipelines (16-bit and fp8) where
    the output holds at most DEEP_MAX_TILES tiles of 128x128, and only there; the kernels'
    prunes pass N (the GPU's lists: the interpreter has one tile)."""
    from swizzlekit.kernels.triton import matmul_configs as mc
    from swizzlekit.kernels.triton import scaled_configs as sc
    from swizzlekit.kernels.triton.configs import DEEP_TILES, FP8_DEEP_TILES, _key, deep_ok

    assert deep_ok(M, N) == deep and not deep_ok(M)
    for module in (mc, sc):
        monkeypatch.setattr(module, "_INTERPRET", False)
    named = {"M": M, "N": N}
    a16 = torch.empty(1, 1, dtype=torch.bfloat16)
    kept16 = mc._prune(mc._configs(swap=True), {**named, "a_ptr": a16, "stride_bk": N,
                                                "stride_bn": 1}, PRECISION="ieee")
    kept8 = sc._prune(sc._configs(), {**named, "c_ptr": a16})
    for kept, tiles in ((kept16, DEEP_TILES), (kept8, FP8_DEEP_TILES)):
        assert bool({_key(c)[:5] for c in kept} & set(tiles)) == deep


@pytest.mark.parametrize("rule,args,message", [
    ("deep_ok", (0,), "M must"), ("deep_ok", (8, "8"), "N must"),
    ("pitch_min_m", (1,), "elem_bytes must be 2"), ("pitch_min_m", (2, "b300"), "valid: h200"),
])
def test_the_plan_rules_refuse_bad_sizes_by_name(rule, args, message):
    from swizzlekit.kernels.triton import configs, copies

    with pytest.raises(SwizzleKitError, match=message):
        getattr(copies if rule == "pitch_min_m" else configs, rule)(*args)


def test_only_plain_copies_routes_launch_by_address(monkeypatch):
    """matmul._express: a repeat call goes the raw-address way (_follow_copies) only on a
    route of copies for TMA (any K split) with no pitched or K-major copy of B, a copier kept
    for its fingerprint, and no launch hook (hooks see the tensors)."""
    from swizzlekit.kernels.triton import copies as rules, matmul as mm
    from swizzlekit.kernels.triton.routes import Route

    monkeypatch.setattr(rules, "_COPIERS", None)
    copier = object()
    rules.copiers().put("seen", copier)
    plain = Route(("key",), 1, True, False, copies=True)
    assert mm._express(plain, "seen") is copier
    assert mm._express(plain._replace(tma=False), "seen") is copier   # the pointer kernel
    assert mm._express(plain._replace(split=2), "seen") is copier     # a split K
    assert mm._express(plain, "unseen") is None
    for change in (dict(pitch=True), dict(kcopy=True), dict(copies=False),
                   dict(copies=False, pad=True), dict(tail=True)):
        assert mm._express(plain._replace(**change), "seen") is None, change
    from swizzlekit.kernels.triton import express

    monkeypatch.setattr(express, "hooked", lambda: True)
    assert mm._express(plain, "seen") is None


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.integers(1, 300), st.booleans(),
       st.sampled_from(["A", "B", "AB"]), st.booleans())
def test_a_copiers_buffer_holds_both_copies_apart_and_aligned(rows_a, k, cols_b, fp32, copied,
                                                             b_kmajor):
    """copies._Copier's one buffer: A's copy at its start, B's rows' copy from the next
    COPY_ALIGN bytes past A's last, the buffer exactly as long as that; the views made over
    it have the operands' shapes and the copies' row pitch, and lie inside it."""
    from swizzlekit.kernels.triton import copies as rules

    dtype = torch.float32 if fp32 else torch.float16
    a = torch.randn(rows_a, k, dtype=dtype)
    b = torch.randn(cols_b, k, dtype=dtype).T if b_kmajor else torch.randn(k, cols_b, dtype=dtype)
    b_rows = b.T if b_kmajor else b
    a_to = rules._pitch_shape(a) if "A" in copied else None
    b_to = rules._pitch_shape(b_rows) if "B" in copied else None
    copier = rules._Copier(None, a_to, b_to, b_kmajor, a.element_size())
    e = a.element_size()
    a_bytes = a_to[0] * a_to[1] * e if a_to else 0
    assert copier.b_at % rules.COPY_ALIGN == 0 and 0 <= copier.b_at - a_bytes < rules.COPY_ALIGN
    assert copier.nbytes == copier.b_at + (b_to[0] * b_to[1] * e if b_to else 0)
    buf = torch.empty(copier.nbytes, dtype=torch.uint8)
    a2, b2 = copier.views(buf, a, b)
    assert a2.shape == a.shape and b2.shape == b_rows.shape
    for view, to, given in ((a2, a_to, a), (b2, b_to, b_rows)):
        if to is None:                                  # read as given
            assert view.data_ptr() == given.data_ptr() and view.stride() == given.stride()
            continue
        assert view.stride() == (to[1], 1) and to[1] * e % rules.PITCH_BYTES == 0
        start = view.data_ptr() - buf.data_ptr()
        assert 0 <= start and start + to[0] * to[1] * e <= copier.nbytes


def test_describe_reads_the_route_and_plan_a_call_kept(monkeypatch):
    """matmul.describe: for arguments whose fingerprint has a kept route (a stand-in here, as
    a GPU call's second call keeps one), the load path, config label, order, split and copies
    of its route and plan; None for arguments never planned (or planned under other
    options); the door's errors for arguments matmul would refuse."""
    from types import SimpleNamespace

    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.routes import Route, RouteCache, fingerprint

    monkeypatch.setattr(mm, "ROUTES", RouteCache(8))
    monkeypatch.setattr(mm, "PLANS", mm.PlanCache(8))
    a, b = torch.randn(300, 1001, dtype=torch.float16), torch.randn(1001, 64, dtype=torch.float16)
    options = ("auto", "tf32", False, None, 2)
    mm.ROUTES.put(fingerprint((a, b, None), options),
                  Route(("sig",), 2, True, False, copies=True, c_ptr=False))
    mm.PLANS.put(("sig",), SimpleNamespace(
        config={"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 64, "SWAP_AB": False},
        info={"num_stages": 4, "num_warps": 4, "ORDER": "grouped", "P": 8}))
    got = mm.describe(torch.randn(300, 1001, dtype=torch.float16),
                      torch.randn(1001, 64, dtype=torch.float16), split_k=2)
    assert got == {"kernel": "tma", "config": "128x64x64/s4/w4", "order": "grouped", "p": 8,
                   "split_k": 2, "copies": "copies", "b_pitch_copy": False,
                   "b_kmajor_copy": False, "c_masked": False, "c_registers": False,
                   "tail_split": False}
    assert mm.describe(a, b) is None                            # split_k=None: not planned
    assert mm.describe(a, b.T.contiguous().T, split_k=2) is None  # another layout
    with pytest.raises(SwizzleKitError, match="b must be a torch tensor"):
        mm.describe(a, "b")
    with pytest.raises(SwizzleKitError, match="tma"):
        mm.describe(a, b, tma="yes")
    with pytest.raises(SwizzleKitError, match="hilbert"):          # the valid orders listed
        mm.describe(a, b, "zigzag")
    with pytest.raises(SwizzleKitError, match="split_k"):
        mm.describe(a, b, split_k=0)


@pytest.mark.parametrize("kept", range(4), ids=["triton", "128x256", "256x128", "256x192"])
def test_the_cutlass_route_keeps_the_tiles_the_first_call_timed(monkeypatch, kept):
    """Where the 16-bit route holds (put by hand here: it needs an sm_90 GPU), the first call
    runs its Triton plan and times it against CUTLASS's GEMM in each of its tiles; later calls
    of the same fingerprint run what it kept, in the tiles kept, and ``describe`` names them.
    CUTLASS is a stub here that writes the float64 product, so each call's sum is checked."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.clustered import CUTLASS_CANDIDATES
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    monkeypatch.setattr(mm, "CLUSTERED", mm.PlanCache(8))
    monkeypatch.setattr(mm, "clustered_route", lambda *args: True)
    calls, timed = [], []
    a, b = random_operands(64, 48, 64, torch.float16, "cpu")
    ref = (a.double() @ b.double()).half()

    def cutlass(a_, b_, *, out=None, tiles=None):
        calls.append(tiles)
        return out.copy_(ref)

    def pick(triton_call, *cutlass_calls, names=None, builds=()):
        timed.append(len(cutlass_calls))
        assert names[0] == "triton" and len(names) == len(cutlass_calls) + 1
        assert len(builds) == len(CUTLASS_CANDIDATES)                       # each library once
        for call in (triton_call, *cutlass_calls):
            call()
        return kept

    def launch(a_, b_, out, tiles):                       # a repeat call: no door
        calls.append(tiles)
        return out.copy_(ref)

    monkeypatch.setattr(mm, "cutlass_matmul", cutlass)
    monkeypatch.setattr(mm, "launch_matmul", launch)
    monkeypatch.setattr(mm, "pick_clustered", pick)
    for call in range(3):
        out = poisoned(64, 48, torch.float16, "cpu")
        assert mm.matmul(a, b, out=out) is out
        err = relative_error(out, a, b)
        assert err == err and err < mm.TOLERANCE["float16"], (call, err)
    assert timed == [len(CUTLASS_CANDIDATES)]             # timed once, beside the Triton plan
    assert calls == list(CUTLASS_CANDIDATES) + [CUTLASS_CANDIDATES[kept - 1]] * 2 * bool(kept)
    described = mm.describe(a, b, out=out)
    if kept:
        assert described["kernel"] == "cutlass"
        assert described["config"] == CUTLASS_CANDIDATES[kept - 1]
    else:
        assert described is None or described["kernel"] != "cutlass"
