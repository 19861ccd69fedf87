"""Routes (kernels/triton/routes.py) on the CPU: a call's fingerprint must fix everything the
door and the routing read, so that a repeat call with the same fingerprint may skip them.

Here the property is checked on CPU tensors (the door accepts them under Triton's
interpreter, which tests/conftest.py sets): operands built by one random recipe twice (fresh
memory, the same layout) have equal fingerprints and equal door verdicts, signatures,
TMA-readiness and alignment; a recipe that differs in layout, dtype or base alignment gives
another fingerprint. The GPU tier checks the routes' products against float64."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from swizzlekit.errors import SwizzleKitError  # noqa: E402
from swizzlekit.kernels.triton.call import _check, _signature, _tma_ok  # noqa: E402
from swizzlekit.kernels.triton.copies import _aligned  # noqa: E402
from swizzlekit.kernels.triton.routes import fingerprint  # noqa: E402


def _build(recipe):
    """A 2-D tensor by recipe: (rows, cols, dtype, transposed, offset, padding)."""
    rows, cols, dtype, transposed, offset, pad = recipe
    shape = (cols, rows) if transposed else (rows, cols)
    flat = torch.randn(shape[0] * (shape[1] + pad) + offset, dtype=dtype)
    t = flat[offset:].as_strided(shape, (shape[1] + pad, 1))
    return t.T if transposed else t


def _recipes(rows=None, cols=None):
    return st.tuples(st.just(rows) if rows else st.integers(1, 24),
                     st.just(cols) if cols else st.integers(1, 24),
                     st.sampled_from([torch.float16, torch.float32]), st.booleans(),
                     st.integers(0, 9), st.integers(0, 3))


def _verdict(a, b, out):
    try:
        _check(a, b, out, "tf32")
    except SwizzleKitError as e:
        return str(e)
    return "ok"


def _what_the_door_reads(a, b, c):
    return (_verdict(a, b, c), _signature(a, b, c, "grouped", 8), _tma_ok(a, b, c),
            _aligned(a), _aligned(b))


@settings(max_examples=200, deadline=None)
@given(k=st.integers(1, 24), ra=_recipes(), rb=_recipes(), rc=_recipes())
def test_equal_fingerprints_mean_equal_verdicts(k, ra, rb, rc):
    ra, rb = (ra[0], k, *ra[2:]), (k, *rb[1:])
    options = ("grouped", "tf32", False, None, None)
    first = [_build(r) for r in (ra, rb, rc)]
    again = [_build(r) for r in (ra, rb, rc)]
    if fingerprint(tuple(first), options) == fingerprint(tuple(again), options):
        assert _what_the_door_reads(*first) == _what_the_door_reads(*again)
    else:       # only the allocator's base alignment can differ between two builds
        assert [t.data_ptr() % 16 for t in first] != [t.data_ptr() % 16 for t in again]


@settings(max_examples=100, deadline=None)
@given(r=_recipes(), field=st.sampled_from(["dtype", "transposed", "offset", "padding"]))
def test_a_different_layout_is_a_different_fingerprint(r, field):
    i = ["rows", "cols", "dtype", "transposed", "offset", "padding"].index(field)
    changed = list(r)
    changed[i] = {"dtype": lambda d: torch.float16 if d == torch.float32 else torch.float32,
                  "transposed": lambda t: not t, "offset": lambda o: o + 1,
                  "padding": lambda p: p + 1}[field](r[i])
    x, y = _build(r), _build(tuple(changed))
    same_layout = (x.dtype, x.stride(), x.data_ptr() % 16) == (y.dtype, y.stride(),
                                                               y.data_ptr() % 16)
    assert (fingerprint((x,), ()) == fingerprint((y,), ())) == same_layout


def test_options_are_part_of_the_fingerprint():
    x = torch.zeros(8, 8)
    prints = {fingerprint((x, x, None), options) for options in [
        ("grouped", "tf32", False, None, None), ("grouped", "ieee", False, None, None),
        ("grouped", "tf32", True, None, None), ("grouped", "tf32", False, True, None),
        ("grouped", "tf32", False, None, 2), ("row", "tf32", False, None, None),
        ("grouped", "tf32", False, None, None, ("group", 4))]}
    assert len(prints) == 7
    assert fingerprint((x, [1, 2]), ()) is None            # not a tensor: the door answers


def test_a_route_is_followed_only_while_its_plan_is_kept():
    from swizzlekit.kernels.triton.plans import PlanCache
    from swizzlekit.kernels.triton.routes import Route, RouteCache

    routes, plans = RouteCache(8), PlanCache(1)
    print_ = fingerprint((torch.zeros(4, 8),), ("grouped",))
    assert routes.follow(print_, plans) is None and routes.follow(None, plans) is None
    route = Route(("key",), 1, True, False)
    routes.put(print_, route)
    assert routes.follow(print_, plans) is None                 # no plan under its key yet
    plans.put(("key",), "plan")
    assert routes.follow(print_, plans) == (route, "plan")
    plans.put(("other",), "plan 2")                             # evicts the route's plan
    assert routes.follow(print_, plans) is None


def test_a_padded_call_adopts_its_copies_route():
    """A call run on aligned copies takes the copies' route, marked pad; nothing when the
    copies' call kept none, or when the call itself has no fingerprint."""
    from swizzlekit.kernels.triton.plans import PlanCache
    from swizzlekit.kernels.triton.routes import Route, RouteCache

    routes, plans = RouteCache(8), PlanCache(4)
    ragged = fingerprint((torch.zeros(4, 7),), ("grouped",))
    copies = fingerprint((torch.zeros(4, 16),), ("grouped",))
    routes.adopt(ragged, copies)
    assert len(routes) == 0                                     # the copies kept no route
    route = Route(("key",), 2, True, True)
    routes.put(copies, route)
    routes.adopt(None, copies)
    assert len(routes) == 1
    routes.adopt(ragged, copies)
    plans.put(("key",), "plan")
    assert routes.follow(ragged, plans) == (route._replace(pad=True), "plan")
    assert routes.follow(copies, plans) == (route, "plan")      # the copies' own is unchanged
    assert not route.pad and routes.get(ragged).pad
    routes.adopt(ragged, copies, "copies")                      # TMA's copies: marked so
    assert routes.get(ragged) == route._replace(copies=True)
    with pytest.raises(SwizzleKitError, match="'pad' or 'copies'"):
        routes.adopt(ragged, copies, "pitch")
