"""Layouts: CuTe semantics against pycute, bijection/inverse exhaustively, exact conversions."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pycute = pytest.importorskip("pycute", reason="nvidia-cutlass (pycute) is not installed")

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem.layouts import (TMA_MODES, LinearLayout, RowMajor, Swizzle, Swizzled, TmaSwizzle,
                                     TritonShared, XorCols)
from swizzlekit.smem.specs import parse_layout

VALID = [(b, m, s) for b in range(0, 4) for m in range(0, 5) for s in range(-6, 7)
         if abs(s) >= b]


@pytest.mark.parametrize("b,m,s", VALID)
def test_swizzle_equals_pycute_on_its_whole_domain(b, m, s):
    ours = Swizzle(b, m, s)
    domain = np.arange(1 << (b + m + abs(s) + 1))     # one bit past the domain, too
    if s == 0:
        # CuTe allows S = 0 only with B = 0: the identity. pycute's shiftr/shiftl recurse
        # forever on a zero shift (nvidia-cutlass 4.2.0.0), so compare with the identity.
        assert np.array_equal(ours(domain), domain)
        return
    theirs = pycute.Swizzle(b, m, s)
    assert [ours(int(x)) for x in domain] == [theirs(int(x)) for x in domain]
    assert np.array_equal(ours(domain), np.array([theirs(int(x)) for x in domain]))
    assert ours.size() == theirs.size()


@pytest.mark.parametrize("b,m,s", VALID)
def test_swizzle_is_a_bijective_involution(b, m, s):
    sw = Swizzle(b, m, s)
    domain = np.arange(sw.size())
    image = sw(domain)
    assert sorted(image.tolist()) == domain.tolist()
    assert np.array_equal(sw.inverse()(image), domain)
    assert np.array_equal(sw.linear()(domain), image)


@pytest.mark.parametrize("b,m,s", [(3, 0, 2), (2, 0, 1), (3, 1, -2), (4, 0, 3)])
def test_cute_constraint_is_reported_as_cute_does(b, m, s):
    with pytest.raises(SwizzleKitError, match=r"abs\(SShift\) must be more than BBits"):
        Swizzle(b, m, s)
    with pytest.raises(AssertionError):
        pycute.Swizzle(b, m, s)


@pytest.mark.parametrize("b,m,s", [(-1, 0, 3), (1, -1, 3)])
def test_negative_parameters_rejected(b, m, s):
    with pytest.raises(SwizzleKitError, match="must be positive"):
        Swizzle(b, m, s)


FORMS = [(b, m, s) for b in range(1, 5) for m in range(0, 3) for s in range(-5, 6) if s != 0]


@pytest.mark.parametrize("b,m,s", FORMS)
def test_xor_form_is_a_bijection_equal_to_the_formula(b, m, s):
    lay = LinearLayout.from_xor(b, m, s)
    domain = np.arange(1 << lay.bits)
    ymask = ((1 << b) - 1) << (m + max(0, s))
    formula = domain ^ ((domain & ymask) >> s if s > 0 else (domain & ymask) << -s)
    assert np.array_equal(lay(domain), formula)
    assert sorted(lay(domain).tolist()) == domain.tolist()
    assert np.array_equal(lay.inverse()(lay(domain)), domain)
    assert lay.xor_form() == (b, m, s) or lay.xor_form() is not None
    assert (lay.as_swizzle() is None) == (abs(lay.xor_form()[2]) < lay.xor_form()[0])


def test_seed_swizzle_302_is_recognised_as_cute_forbidden():
    lay = LinearLayout.from_xor(3, 0, 2)
    assert lay.xor_form() == (3, 0, 2)
    assert lay.as_swizzle() is None
    # the seed's matrix: rows are output bits, columns input bits
    assert lay.matrix.tolist() == [[1, 0, 1, 0, 0], [0, 1, 0, 1, 0], [0, 0, 1, 0, 1],
                                   [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]]


invertible = st.integers(2, 7).flatmap(lambda n: st.permutations(range(n)).flatmap(
    lambda perm: st.lists(st.integers(0, (1 << n) - 1), min_size=n, max_size=n).map(
        lambda noise: (n, perm, noise))))


@settings(max_examples=150, deadline=None)
@given(invertible, invertible)
def test_linear_compose_and_inverse(a_spec, b_spec):
    def build(spec):
        n, perm, noise = spec
        # upper-triangular noise on a permutation keeps it invertible
        bases = [1 << perm[j] for j in range(n)]
        for j in range(n):
            for i in range(j):
                if noise[j] >> i & 1:
                    bases[j] ^= bases[i]
        return LinearLayout(tuple(bases))
    a, b = build(a_spec), build(b_spec)
    n = max(a.bits, b.bits)
    dom = np.arange(1 << n)
    assert np.array_equal(a.compose(b)(dom), a(b(dom)))
    assert np.array_equal(a.inverse()(a(dom)), dom)


def test_singular_linear_layout_rejected():
    with pytest.raises(SwizzleKitError, match="singular"):
        LinearLayout((1, 1, 4))


TILES = [RowMajor(8, 9, 1), RowMajor(4, 32), Swizzled(8, 8, Swizzle(3, 0, 3)),
         Swizzled(8, 4, LinearLayout.from_xor(3, 0, 2)), XorCols(8, 24, 3),
         XorCols(16, 16, 2, 2, 1), TritonShared(16, 64, 8, 2, 4), TmaSwizzle(16, 64, 128, 2),
         TmaSwizzle(8, 8, 32, 4)]


@pytest.mark.parametrize("tile", TILES, ids=str)
def test_tile_layouts_are_bijections(tile):
    assert tile.is_bijective()
    r, c = np.meshgrid(np.arange(tile.rows), np.arange(tile.cols), indexing="ij")
    assert np.array_equal(tile.offsets(), tile(r, c))
    assert all(tile(int(i), int(j)) == tile.offsets()[i, j]
               for i, j in itertools.product(range(tile.rows), range(tile.cols)))


@pytest.mark.parametrize("vec,pp,mp", [(1, 1, 8), (8, 1, 8), (4, 2, 4), (2, 4, 2), (8, 2, 8)])
def test_triton_shared_converts_to_the_cute_swizzle(vec, pp, mp):
    t = TritonShared(32, 64, vec, pp, mp)
    b, m, s = mp.bit_length() - 1, vec.bit_length() - 1, 6 + pp.bit_length() - 1 - (vec.bit_length() - 1)
    assert np.array_equal(t.offsets(), Swizzled(32, 64, Swizzle(b, m, s)).offsets())
    assert t.linear().as_swizzle() == Swizzle(b, m, s)


@pytest.mark.parametrize("mode,b", [(32, 1), (64, 2), (128, 3)])
@pytest.mark.parametrize("eb", [1, 2, 4, 8, 16])
def test_tma_modes_are_byte_swizzles(mode, b, eb):
    t = TmaSwizzle(16, mode // eb, mode, eb)
    byte = Swizzle(b, 4, 3)
    expect = byte(t.offsets() * 0 + RowMajor(16, mode // eb).offsets() * eb) // eb
    assert np.array_equal(t.offsets(), expect)
    if eb <= 16 and 4 - (eb.bit_length() - 1) >= 0:
        assert t.linear().as_swizzle() == Swizzle(b, 4 - (eb.bit_length() - 1), 3)


@pytest.mark.parametrize("mode", [32, 64, 128])
@pytest.mark.parametrize("eb, boxes, rows", [(2, 2, 8), (1, 3, 24), (4, 4, 5), (16, 2, 16)])
def test_wide_tma_tiles_are_boxes_stored_one_after_another(mode, eb, boxes, rows):
    """Box j holds columns j*pc .. (j+1)*pc - 1 at j * rows * mode bytes on, swizzled by the
    address as a single-box tile at that address would be."""
    pc = mode // eb
    wide = TmaSwizzle(rows, pc * boxes, mode, eb)
    off = wide.offsets()
    assert wide.is_bijective() and off.max() + 1 == rows * pc * boxes
    byte = TMA_MODES[mode]
    for j in range(boxes):
        base = j * rows * mode                          # the box's first byte
        plain = (base + RowMajor(rows, pc).offsets() * eb)
        assert np.array_equal(off[:, j * pc:(j + 1) * pc], byte(plain) // eb)


def test_xor_cols_on_power_of_two_rows_is_a_cute_swizzle():
    assert XorCols(8, 8, 3).linear().as_swizzle() == Swizzle(3, 0, 3)
    assert XorCols(8, 32, 3).linear().as_swizzle() == Swizzle(3, 0, 5)
    assert XorCols(8, 24, 3).linear() is None                 # 24 is not a power of two


@pytest.mark.parametrize("spec, message", [
    ("zigzag", "unknown layout 'zigzag'; valid: row-major, pad"),
    ("swizzle:3,0", "takes 3 integers"),
    ("swizzle:3,0,2", "abs\\(SShift\\)"),
    ("pad:-1", "pad must be at least 0"),
    ("xor-cols:3", "not a multiple"),
    ("triton:3,1,8", "power of two"),
    ("tma:96", "TMA swizzle mode"),
    ("swizzle:a,b,c", "not a list of integers"),
])
def test_parse_layout_errors(spec, message):
    with pytest.raises(SwizzleKitError, match=message):
        parse_layout(spec, 8, 9 if spec.startswith("xor-cols") else 8, 16)


def test_swizzle_on_tile_needs_power_of_two_and_enough_bits():
    with pytest.raises(SwizzleKitError, match="power-of-two"):
        Swizzled(8, 24, Swizzle(3, 0, 3))
    with pytest.raises(SwizzleKitError, match="touches 8 bits"):
        Swizzled(8, 8, Swizzle(3, 0, 5))


def _xor_form_by_search(lay):
    """The oracle: every (B, M, S) tried, the first whose map equals ``lay``."""
    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.smem.layouts import LinearLayout

    n = lay.bits
    if all(v == 1 << j for j, v in enumerate(lay.bases)):
        return (0, 0, 0)
    for b in range(1, n + 1):
        for s in range(-n, n + 1):
            for m in range(0, n - b - abs(s) + 1):
                try:
                    cand = LinearLayout.from_xor(b, m, s)._padded(n)
                except SwizzleKitError:
                    continue
                if cand.bases == lay.bases:
                    return (b, m, s)
    return None


def test_xor_form_equals_the_search_over_every_form():
    """Exhaustive on every XOR form of up to 8 bits, and on random maps of up to 7."""
    import numpy as np

    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.smem import gf2
    from swizzlekit.smem.layouts import LinearLayout

    seen = 0
    for n in range(1, 9):
        for b in range(1, n + 1):
            for s in [x for x in range(-n, n + 1) if x]:
                for m in range(0, n - b - abs(s) + 1):
                    try:
                        lay = LinearLayout.from_xor(b, m, s)._padded(n)
                    except SwizzleKitError:
                        continue
                    assert lay.xor_form() == _xor_form_by_search(lay) == (b, m, s)
                    # from_xor skips the rank check: its maps are unitriangular
                    assert gf2.is_invertible(LinearLayout.from_xor(b, m, s).matrix)
                    seen += 1
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(2, 8))
        bases = [1 << j for j in range(n)]
        for _ in range(int(rng.integers(0, 4))):
            i, j = rng.choice(n, 2, replace=False)
            bases[i] ^= bases[j]
        lay = LinearLayout(tuple(bases))
        assert lay.xor_form() == _xor_form_by_search(lay)
    assert seen > 300
