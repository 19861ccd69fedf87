"""Order families (swizzlekit.cta.families): read off an array exactly as a brute-force
search over every family and group size finds them, on every small grid; and the time
model's per-family factor."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from swizzlekit.cta import ORDERS, order
from swizzlekit.cta.families import FAMILIES, family, time_family
from swizzlekit.cta.l2 import simulate
from swizzlekit.cta.timing import TIME_FITTED, kernel_time
from swizzlekit.errors import SwizzleKitError


def _oracle(o: np.ndarray, tm: int, tn: int):
    """The first family of FAMILIES with any parameters whose order on the grid is ``o``."""
    for name in FAMILIES:
        if name.startswith("grouped"):
            built = [order("grouped", tm, tn, group=g, along=name[-1])
                     for g in range(1, max(tm, tn) + 2)]
        else:
            built = [order(name, tm, tn)]
        if any(np.array_equal(o, b) for b in built):
            return name
    return None


def _every_order(tm: int, tn: int):
    """Every registered order on the grid, with several parameter values each."""
    for name, spec in ORDERS.items():
        choices = []
        for key, default in spec.params.items():
            if key == "along" or key == "raster":
                choices.append([(key, "m"), (key, "n")])
            elif key == "fixed":
                choices.append([(key, True)])
            else:
                choices.append([(key, v) for v in (1, 2, 3, 4, 8)])
        for combo in itertools.product(*choices):
            try:
                yield order(name, tm, tn, **dict(combo))
            except SwizzleKitError:
                continue


@pytest.mark.parametrize("tm", range(1, 9))
def test_every_order_on_small_grids_is_the_brute_force_family(tm):
    for tn in range(1, 9):
        for o in _every_order(tm, tn):
            assert family(o, tm, tn) == _oracle(o, tm, tn)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_a_random_order_is_a_family_only_if_it_is_one(tm, tn, seed):
    rng = np.random.default_rng(seed)
    o = order("row", tm, tn)[rng.permutation(tm * tn)]
    assert family(o, tm, tn) == _oracle(o, tm, tn)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.sampled_from(FAMILIES),
       st.integers(1, 64))
def test_each_familys_own_order_is_that_family_or_an_identical_earlier_one(tm, tn, name, g):
    params = {"group": g, "along": name[-1]} if name.startswith("grouped") else {}
    o = order("grouped" if params else name, tm, tn, **params)
    got = family(o, tm, tn)
    assert got is not None and FAMILIES.index(got) <= FAMILIES.index(name)


def test_not_an_order_of_the_grid_is_no_family():
    o = order("row", 4, 4)
    assert family(o, 4, 5) is None                      # the wrong grid
    assert family(o.astype(float), 4, 4) is None         # not integers
    assert family(o[:-1], 4, 4) is None                  # a tile short
    assert family([[0, 0]], 1, 1) == "row"
    with pytest.raises(SwizzleKitError, match="tiles_m must be"):
        family(o, 0, 4)
    with pytest.raises(SwizzleKitError, match="persistent"):
        time_family(o, 4, 4, "yes")


def test_the_family_factor_scales_the_time_and_simulate_applies_it():
    """A family's order takes its factor, an order of no family the largest, a persistent
    grid none."""
    o = order("morton", 64, 64)
    for gpu in ("h100-sxm", "h200"):
        plain = kernel_time(8192, 8192, 4096, 2, [10**9] * 3, 2**27, gpu)
        slower = TIME_FITTED[gpu]["families"]["morton"]
        assert kernel_time(8192, 8192, 4096, 2, [10**9] * 3, 2**27, gpu,
                           family="morton") == pytest.approx(plain * (1 + slower), rel=1e-12)
        p = simulate(8192, 8192, 4096, o, gpu=gpu, ctas_per_sm=2)
        assert p.time_s == kernel_time(8192, 8192, 4096, 2, p.per_wave_dram_read_bytes,
                                       p.dram_write_bytes, gpu, family="morton")
        q = simulate(8192, 8192, 4096, o, gpu=gpu, ctas_per_sm=2, persistent=True)
        assert q.time_s == kernel_time(8192, 8192, 4096, 2, q.per_wave_dram_read_bytes,
                                       q.dram_write_bytes, gpu)
        other = simulate(8192, 8192, 4096, order("strip_snake", 64, 64, width=8), gpu=gpu)
        assert other.time_s == kernel_time(8192, 8192, 4096, 2, other.per_wave_dram_read_bytes,
                                           other.dram_write_bytes, gpu) * (
            1 + max(TIME_FITTED[gpu]["families"].values()))
    with pytest.raises(SwizzleKitError, match="family 'zorder' is not valid; choose one of: "
                                              "row, col"):
        kernel_time(4, 4, 4, 2, [0], 0, "h200", family="zorder")
