"""order="auto" (swizzlekit.kernels.triton.auto_order): the pick is the candidate of least
predicted time, as simulating cta.rank's sweep computes it independently, the default order
(cta.rank.DEFAULT_ORDER, grouped(16)) unless the gain beats the GPU's noise band, and the GEMMs
take it as their default."""

import pytest
from hypothesis import given, settings, strategies as st

from swizzlekit.cta.timing import ORDER_NOISE_PCT
from swizzlekit.cta.l2 import simulate
from swizzlekit.cta.orders import order
from swizzlekit.cta.rank import DEFAULT_ORDER, SWEEP
from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton import auto_order, choose
from swizzlekit.kernels.triton.auto_order import CANDIDATES, DEFAULT, pick

LABELS = ("128x256x64/s3/w8", "128x128x64/s4/w8", "64x128x64/s4/w4")


def _oracle(M, N, K, config, elem, out):
    """The candidates' predictions, simulated one by one over cta.rank's sweep of the grouped
    order (rank itself refuses grids past RANK_MAX_TILES, which a 64-wide config reaches
    here, since it sweeps every order)."""
    bm, bn, bk, stages, warps, _ = choose._parse(config)
    ctas = choose._residency(bm, bn, bk, stages, warps, elem, out, "h200")
    tm, tn = -(-M // bm), -(-N // bn)
    return {(p["group"], p["along"]): simulate(
        M, N, K, order("grouped", tm, tn, **p), tile=(bm, bn, bk), elem_bytes=elem,
        out_bytes=out, ctas_per_sm=ctas) for p in SWEEP["grouped"]}


@settings(max_examples=25, deadline=None)
@given(st.integers(1024, 12288), st.integers(1024, 12288), st.integers(256, 8192),
       st.sampled_from([(2, 2), (1, 2), (4, 4)]))
def test_pick_is_the_fastest_candidate_beyond_the_noise_band(M, N, K, elems):
    elem, out = elems
    p = pick(M, N, K, {2: "16bit", 1: "fp8", 4: "tf32"}[elem], "tma", LABELS, elem, out)
    assert (p.order, p.params) in [DEFAULT] + [c for c in CANDIDATES]
    assert p.config == min(LABELS, key=lambda c: choose.predict(
        M, N, K, {2: "16bit", 1: "fp8", 4: "tf32"}[elem], "tma", c))
    if p.dram_bytes == 0:                          # not simulated: fits in L2, or too large
        assert (p.order, p.params) == DEFAULT
        return
    pred = _oracle(M, N, K, p.config, elem, out)
    band = ORDER_NOISE_PCT["h200"] / 100
    base = pred[(16, "m")]
    assert (p.default_dram_bytes, p.default_time_s) == (base.dram_read_bytes, base.time_s)
    best = min(x.time_s for x in pred.values())
    if (p.order, p.params) == DEFAULT:
        assert best >= base.time_s * (1 - band)
    else:
        mine = pred[(p.params["group"], p.params["along"])]
        assert p.time_s == best == mine.time_s and p.dram_bytes == mine.dram_read_bytes
        assert best < base.time_s * (1 - band)


def test_the_default_is_the_rankings_default():
    assert DEFAULT == DEFAULT_ORDER == ("grouped", {"group": 16, "along": "m"})
    assert DEFAULT in CANDIDATES


def test_small_problems_keep_the_default_without_the_model():
    p = pick(2048, 2048, 2048, "16bit", "tma", LABELS, 2, 2)
    assert (p.order, p.params, p.dram_bytes) == (*DEFAULT, 0)
    assert "fit in half the L2" in p.reason


def test_large_grids_are_not_simulated_on_a_call():
    p = pick(65536, 65536, 65536, "16bit", "tma", LABELS, 2, 2)
    assert (p.order, p.params, p.dram_bytes) == (*DEFAULT, 0)
    assert str(auto_order.MAX_TILE_STEPS) in p.reason


def test_a_large_problem_gets_a_pick_with_its_reason():
    p = pick(16384, 16384, 2048, "16bit", "tma", LABELS, 2, 2)
    assert 0 < p.time_s <= p.default_time_s and p.dram_bytes > 0
    assert (p.order, p.params) == DEFAULT and "noise band" in p.reason


@pytest.mark.parametrize("args, message", [
    ((0, 4, 4, "16bit", "tma", LABELS, 2, 2), "M, N, K >= 1"),
    ((4, 4, 4, "16bit", "tma", (), 2, 2), "at least one config"),
])
def test_bad_input(args, message):
    with pytest.raises(SwizzleKitError, match=message):
        pick(*args)


def test_matmul_resolves_auto_by_its_own_configs():
    torch = pytest.importorskip("torch")
    from swizzlekit.kernels.triton.call import _INTERPRET, _requested_order
    from swizzlekit.kernels.triton.matmul_configs import _auto_order, config_labels

    assert _requested_order("auto", {}) == ("auto", 0)
    with pytest.raises(SwizzleKitError, match="takes no parameters"):
        _requested_order("auto", {"group": 4})
    if _INTERPRET:
        pytest.skip("the interpreter has one config")
    a = torch.empty(0, dtype=torch.bfloat16)
    name, params = _auto_order(a, 16384, 16384, 2048, "tf32", True, False, False)
    assert (name, params) == pick(16384, 16384, 2048, "16bit", "tma",
                                  config_labels(2, 16384, False, True), 2, 2)[:2]
    assert "/swap" in config_labels(4, 4096, True, True)[0]
