"""The wave rules (:mod:`swizzlekit.kernels.triton.waves`): wave fill by its definition on a
small domain exhaustively, and ``wide_for``'s promise on random shapes (hypothesis), checked
against a brute-force count of tiles and waves."""

import math

import pytest
from hypothesis import given, settings, strategies as st

from swizzlekit.errors import SwizzleKitError
from swizzlekit.kernels.triton.waves import (PLAIN_MAX_FILL, PLAIN_TILE, PLAIN_TILES,
                                             WIDE_MIN_FILL, WIDE_MIN_SAVING, round_cost,
                                             WIDE_MIN_MNK, WIDE_TILES, tiles_of, wave_fill,
                                             wide_for)


def _fill_by_count(tiles: int, sms: int) -> float:
    """Tiles over the SM slots of the waves they need, counted wave by wave."""
    waves, left = 0, tiles
    while left > 0:
        waves, left = waves + 1, left - sms
    return tiles / (waves * sms)


def test_wave_fill_exhaustively():
    for sms in range(1, 40):
        for tiles in range(1, 200):
            f = wave_fill(tiles, sms)
            assert f == pytest.approx(_fill_by_count(tiles, sms))
            assert 0 < f <= 1
            assert (f == 1) == (tiles % sms == 0)


@settings(max_examples=300, deadline=None)
@given(M=st.integers(1, 20000), N=st.integers(1, 40000), K=st.integers(1, 40000),
       sms=st.sampled_from([78, 108, 114, 132, 144]))
def test_wide_for_keeps_its_promise(M, N, K, sms):
    tiles = wide_for(M, N, K, sms)
    plain = wave_fill(math.ceil(M / PLAIN_TILE[0]) * math.ceil(N / PLAIN_TILE[1]), sms)
    fills = {t: wave_fill(math.ceil(M / t.height) * math.ceil(N / t.width), sms)
             for t in WIDE_TILES}

    def rounds_by_count(bm, bn):        # one tile an SM: hand the tiles out a round at a time
        left, rounds = math.ceil(M / bm) * math.ceil(N / bn), 0
        while left > 0:
            left, rounds = left - sms, rounds + 1
        return rounds * bm * bn

    least_plain = min(rounds_by_count(bm, bn) for bm, bn in PLAIN_TILES)
    if M * N * K < WIDE_MIN_MNK:
        assert tiles == ()
    else:      # exactly the tiles that fill a sparse last wave well or cost fewer rounds, in order
        assert tiles == tuple(
            t for t in WIDE_TILES
            if (plain <= PLAIN_MAX_FILL and fills[t] >= WIDE_MIN_FILL)
            or rounds_by_count(t.height, t.width) <= (1 - WIDE_MIN_SAVING) * least_plain)


@pytest.mark.parametrize("args", [(0, 384, 128, 256, 132), (7168, 384, 128, 256, 0),
                                  (7168, 384.0, 128, 256, 132), (7168, 384, -128, 256, 132)])
def test_round_cost_refuses_bad_sizes(args):
    with pytest.raises(SwizzleKitError, match="must be"):
        round_cost(*args)


def test_round_cost_against_a_count():
    for sms in (1, 7, 132):
        for M, N in [(7168, 384), (1, 1), (129, 257), (640, 4096), (6016, 768)]:
            for bm, bn in PLAIN_TILES + ((128, 160), (192, 192)):
                tiles = math.ceil(M / bm) * math.ceil(N / bn)
                rounds = len(range(0, tiles, sms))
                assert round_cost(M, N, bm, bn, sms) == rounds * bm * bn


def test_wide_tiles_are_power_of_two_parts():
    for t in WIDE_TILES:
        for part in (t.bm1, t.bn1, t.block_k) + tuple(p for p in (t.bm2, t.bn2) if p):
            assert part & (part - 1) == 0
        assert t.width == t.bn1 + t.bn2 and t.height == t.bm1 + t.bm2
        assert t.label.count("+") == (t.bm2 > 0) + (t.bn2 > 0)


def test_tiles_of_covers_the_output():
    for M, N, bm, bn in [(640, 4096, 128, 160), (1, 1, 128, 160), (129, 161, 128, 160)]:
        t = tiles_of(M, N, bm, bn)
        assert (t // math.ceil(N / bn)) * bm >= M and t * bm * bn >= M * N


def test_wide_route_takes_16bit_tma_routes_only():
    from swizzlekit.kernels.triton.waves import wide_route

    ok = dict(elem_bytes=2, persistent=False, tma=True, b_kmajor=False, c_by_tma=True)
    assert wide_route(**ok)
    for name, bad in [("elem_bytes", 1), ("elem_bytes", 4), ("persistent", True), ("tma", False),
                      ("b_kmajor", True), ("c_by_tma", False)]:
        assert not wide_route(**{**ok, name: bad}), name
    with pytest.raises(SwizzleKitError, match="elem_bytes must be an integer"):
        wide_route(**{**ok, "elem_bytes": 2.0})


@pytest.mark.parametrize("args", [(0, 4096, 4096, 132), (640, 4096, 4096, 0),
                                  (640.0, 4096, 4096, 132), (True, 4096, 4096, 132)], ids=str)
def test_wide_for_refuses_bad_sizes(args):
    with pytest.raises(SwizzleKitError, match="must be"):
        wide_for(*args)


@pytest.mark.parametrize("mode", ["model", "full", "0"])
def test_wide_timed_only_where_first_calls_time(mode, monkeypatch):
    from swizzlekit.kernels.triton import configs
    from swizzlekit.kernels.triton.waves import wide_timed

    monkeypatch.setattr(configs, "_MODE", mode)
    for shape in [(640, 4096, 14336), (768, 4096, 14336), (4096, 4096, 4096)]:
        assert wide_timed(*shape, 132) == (wide_for(*shape, 132) if mode != "0" else ())
