"""GPU tier: composite tiles (:mod:`swizzlekit.kernels.triton.wide_kernel`): the kernel in bf16
and fp16 on ragged shapes and every kind of launch grid, and ``matmul``'s first-call pick at a
wave edge with each outcome forced: the route repeat calls follow, ``describe``, fresh
operands, and a call on copies for TMA. float64 references, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("tile", [0, 1, 2], ids=["128x(128+32)", "128x(128+64)",
                                                 "(128+64)x(128+64)"])
@pytest.mark.parametrize("order,p", [("grouped", 8), ("cutlass", 1), ("morton", 0)])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_wide_kernel_matches_float64(tile, order, p, dtype):
    from swizzlekit.kernels.triton.call import _slots
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.kernels.triton.waves import WIDE_TILES
    from swizzlekit.kernels.triton.wide_kernel import wide_plan
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    dt = getattr(torch, dtype)
    # ragged M and N (600: 88 rows in the last tile of 128, 24 in the last of 192; 4000 =
    # 25 x 160, 20 x 192 + 160) and K (1000: 40 in the last step of 64), whole tiles, and
    # fewer rows than the first part of a tile (100)
    for m, n, k in [(600, 4000, 1000), (576, 3840, 2048), (100, 4000, 512), (1, 8, 8)]:
        a, b = random_operands(m, n, k, dt, "cuda")
        c = poisoned(m, n, dt, "cuda")
        wide_plan(a, b, c, WIDE_TILES[tile], order, p, lambda tm, tn: _slots(order, p, tm, tn))
        err = relative_error(c, a, b)
        assert err == err and err < TOLERANCE[dtype], (m, n, k, err)


@pytest.mark.parametrize("wins", [True, False], ids=["wide wins", "plain wins"])
@pytest.mark.parametrize("m,n,k,tile", [
    (640, 4096, 14336, 0), (600, 4096, 14336, 0), (640, 4096, 14335, 0), (529, 8192, 4096, 1),
    (13989, 280, 3072, 0)],
    ids=["640", "600 ragged M", "A copied (K = 14335)", "529: two tiles, the second kept",
         "B pitched (rows of 560 bytes)"])
def test_matmul_times_a_composite_tile_at_a_wave_edge(monkeypatch, past_the_door, wins, m, n, k,
                                                      tile):
    """At wave edges (:func:`.waves.wide_for` names 128x(128+32), and at 529 x 8192 x 4096
    (128+64)x(128+64) too), the first call times the composite tiles against the plain plan
    (the outcome forced here: composite tile ``tile`` or the plain plan) and keeps the winner
    per signature; repeat calls on fresh operands follow the route it kept (the door broken,
    so they must), and ``describe`` names the tile that ran."""
    from swizzlekit.kernels.triton import first_call
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands

    from swizzlekit.kernels.triton import configs

    monkeypatch.setattr(configs, "_MODE", "model")      # the tier runs SWIZZLEKIT_AUTOTUNE=0
    for cache in (mm.PLANS, mm.ROUTES, mm.LAST_WAVE, mm.SPLITS):
        monkeypatch.setattr(cache, "_plans", type(cache._plans)())
    from swizzlekit.kernels.triton.waves import wide_for

    tiles = wide_for(m, n, k, torch.cuda.get_device_properties(0).multi_processor_count)
    assert len(tiles) > tile
    monkeypatch.setattr(first_call, "pick_split", lambda run, splits: (
        [run(s) for s in splits], tile + 1 if wins else 0)[1])
    a, b = past_the_door(lambda: random_operands(m, n, k, torch.bfloat16, "cuda"), "bfloat16")
    kept = list(mm.LAST_WAVE._plans.values())
    assert len(kept) == 1 and bool(kept[0]) is wins
    told = mm.describe(a, b, out=poisoned(m, n, torch.bfloat16, "cuda"))
    assert told is not None and told["kernel"] == "tma"
    assert (told["config"] == tiles[tile].label) is wins
    assert told["copies"] == ("copies" if k % 8 else "")
    assert told["b_pitch_copy"] is (n * 2 % 64 != 0)
