"""Split K's workspace rule (:mod:`swizzlekit.kernels.triton.splits`): each plane holds the
blocks of every tile of any config whole, checked against the tiles counted one by one, and
the door refuses exactly the splits whose workspace passes its bound."""

import pytest
from hypothesis import given, settings, strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton.splits import (MAX_WORKSPACE, WORKSPACE_SIDE, check_split,
                                              workspace_elements)

SIDES = [1 << i for i in range(4, WORKSPACE_SIDE.bit_length())]     # 16 ... 256


def _blocks_end(split: int, M: int, N: int, bm: int, bn: int) -> int:
    """One past the last element the kernel writes: the last tile's block of the last plane,
    the tiles counted one by one."""
    tiles = sum(1 for _ in range(0, M, bm)) * sum(1 for _ in range(0, N, bn))
    return split * tiles * bm * bn


def test_every_tile_fits_on_a_small_domain():
    for M in range(1, 530, 7):
        for N in range(1, 530, 11):
            have = workspace_elements(2, M, N)
            assert all(_blocks_end(2, M, N, bm, bn) <= have for bm in SIDES for bn in SIDES)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 16), st.integers(1, 40000), st.integers(1, 40000),
       st.sampled_from(SIDES), st.sampled_from(SIDES))
def test_every_tile_fits(split, M, N, bm, bn):
    assert -(-M // bm) * bm * -(-N // bn) * bn * split <= workspace_elements(split, M, N)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 16), st.integers(1, 2**20), st.integers(1, 2**20))
def test_the_door_refuses_exactly_the_workspaces_past_the_bound(split, M, N):
    if workspace_elements(split, M, N) > MAX_WORKSPACE:
        with pytest.raises(SwizzleKitError, match="8 GiB"):
            check_split(split, False, M, N)
    else:
        check_split(split, False, M, N)
