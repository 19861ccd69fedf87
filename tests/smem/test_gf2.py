"""GF(2) algebra: defining properties, exhaustively on small sizes and by hypothesis."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import gf2


def matrices(n_out, n_in):
    return st.lists(st.integers(0, 1), min_size=n_out * n_in, max_size=n_out * n_in).map(
        lambda bits: np.array(bits, dtype=np.uint8).reshape(n_out, n_in))


def test_every_3x3_matrix_rank_and_inverse_agree_with_brute_force():
    for bits in itertools.product((0, 1), repeat=9):
        m = np.array(bits, dtype=np.uint8).reshape(3, 3)
        images = {gf2.apply(m, x) for x in range(8)}
        assert len(images) == 2 ** gf2.rank(m)          # |image| = 2^rank
        if gf2.rank(m) == 3:
            inv = gf2.inverse(m)
            assert all(gf2.apply(inv, gf2.apply(m, x)) == x for x in range(8))
        else:
            with pytest.raises(SwizzleKitError, match="singular"):
                gf2.inverse(m)


@settings(max_examples=200, deadline=None)
@given(matrices(5, 6))
def test_nullspace_is_the_kernel(m):
    basis = gf2.nullspace(m)
    assert len(basis) == 6 - gf2.rank(m)
    kernel = {x for x in range(64) if gf2.apply(m, x) == 0}
    assert set(gf2.span(basis).tolist()) == kernel


@settings(max_examples=200, deadline=None)
@given(matrices(4, 5), matrices(5, 3))
def test_compose_is_applying_in_turn(a, b):
    ab = gf2.compose(a, b)
    assert all(gf2.apply(ab, x) == gf2.apply(a, gf2.apply(b, x)) for x in range(8))


@settings(max_examples=100, deadline=None)
@given(matrices(6, 6))
def test_columns_round_trip_and_from_function(m):
    assert (gf2.from_columns(gf2.columns(m), 6) == m).all()
    assert (gf2.from_function(lambda x: gf2.apply(m, x), 6) == m).all()


def test_compose_rejects_mismatched_shapes():
    with pytest.raises(SwizzleKitError, match="compose"):
        gf2.compose(gf2.identity(3), gf2.identity(4))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10), st.data())
def test_inverse_images_is_the_matrix_inverse(n, data):
    images = data.draw(st.lists(st.integers(0, (1 << n) - 1), min_size=n, max_size=n))
    m = gf2.from_columns(images, n)
    got = gf2.inverse_images(images, n)
    if not gf2.is_invertible(m):
        assert got is None
    else:
        assert list(got) == gf2.columns(gf2.inverse(m))
