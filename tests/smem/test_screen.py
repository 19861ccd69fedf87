"""screen() is the solver without its searches, costed per access: the two agree on every
instruction pair of the problems below."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.smem import solver
from swizzlekit.smem.access import AccessSpec, access_list
from swizzlekit.smem.instructions import choices
from swizzlekit.smem.screen import screen


def _pairs(rows, cols, eb, read, write):
    for ops in itertools.product(choices(read, "read", eb), choices(write, "write", eb)):
        try:
            footprints = tuple(op.footprint(eb, rows) or AccessSpec("row") for op in ops)
            for s in footprints:
                s.placements(rows, cols, eb)
        except SwizzleKitError:
            continue
        if any(op.vector(eb) > cols for op in ops):
            continue
        tma = any(op.kind == "tma" for op in ops)
        if tma and (cols * eb) % 16:
            continue
        yield footprints, max(op.vector(eb) for op in ops), tma


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(8, 32), (16, 16), (32, 64), (64, 8), (16, 128), (24, 32), (12, 16)]),
       st.sampled_from([1, 2, 4, 8]), st.sampled_from([(), ("col",), ("row", "col")]),
       st.sampled_from([("auto", "auto"), ("auto:col", "cp.async:row"), ("auto", "tma")]),
       st.sampled_from([None, 0, 3]))
def test_screen_equals_the_solve_without_searches(shape, eb, accesses, ops, max_pad):
    rows, cols = shape
    try:
        specs = access_list(list(accesses))
        for s in specs:
            s.placements(rows, cols, eb)
    except SwizzleKitError:
        return
    for footprints, vector, tma in _pairs(rows, cols, eb, *ops):
        every = specs + footprints
        keep = solver._keep(every, vector)
        found = screen(rows, cols, eb, every, keep=keep, tma_only=tma, max_pad=max_pad)
        try:
            sol = solver._solve(rows, cols, eb, every, max_pad, tma, vector, row_xor=False,
                                searches=False)
        except SwizzleKitError:
            assert found is None
            continue
        if found is not None:
            assert found[:2] == (sol.wavefronts, sol.storage)
            assert (str(found[2]), found[3]) == (str(sol.layout), sol.family)


def test_screen_leaves_what_it_does_not_cover_to_the_solver():
    row = (AccessSpec("row"),)
    assert screen(24, 32, 4, row, keep=1, tma_only=False, max_pad=None) is None
    assert screen(32, 12, 4, row, keep=8, tma_only=False, max_pad=None) is None


@pytest.mark.parametrize("problem", [(64, 64, 2, ["col"]), (128, 128, 1, ["row", "col"])])
def test_auto_answers_as_with_every_pair_solved_in_full(problem):
    """The screened choice equals the best of every pair solved with its searches."""
    rows, cols, eb, accesses = problem
    sol = solver.solve(rows, cols, eb, accesses, read="auto", write="auto")
    specs = access_list(accesses)
    best = min((s.wavefronts, s.storage) for s in (
        solver._solve(rows, cols, eb, specs + f, None, tma, v)
        for f, v, tma in _pairs(rows, cols, eb, "auto", "auto")))
    assert (sol.wavefronts, sol.storage) == best


@pytest.mark.parametrize("kwargs", [dict(rows=0), dict(elem_bytes=3), dict(keep=0),
                                    dict(max_pad=-1), dict(specs=("row",)),
                                    dict(tma_only="no")])
def test_bad_arguments_are_refused(kwargs):
    args = dict(rows=8, cols=8, elem_bytes=4, specs=(AccessSpec("row"),), keep=1,
                tma_only=False, max_pad=None) | kwargs
    with pytest.raises(SwizzleKitError):
        screen(args.pop("rows"), args.pop("cols"), args.pop("elem_bytes"), args.pop("specs"),
               **args)
