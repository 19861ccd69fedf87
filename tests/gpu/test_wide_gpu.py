"""GPU tier: composite tiles (:mod:`swizzlekit.kernels.triton.wide_kernel`): the kernel in bf16
and fp16 on ragged shapes and every kind of launch grid, and ``matmul``'s first-call pick at a
wave edge with each outcome forced: the route repeat calls follow, ``describe``, fresh
operands, and a call on copies for TMA. float64 references, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("tile", [0, 1], ids=["128+32", "128+64"])
@pytest.mark.parametrize("order,p", [("grouped", 8), ("cutlass", 1), ("morton", 0)])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_wide_kernel_matches_float64(tile, order, p, dtype):
    from swizzlekit.kernels.triton.call import _slots
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.kernels.triton.waves import WIDE_TILES
    from swizzlekit.kernels.triton.wide_kernel import wide_plan
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    dt = getattr(torch, dtype)
    # ragged M and N (600: 88 rows in the last tile; 4000 = 25 x 160, 20 x 192 + 160) and K
    # (1000: 40 in the last step of 64), and whole tiles
    for m, n, k in [(600, 4000, 1000), (640, 4096, 2048), (1, 8, 8)]:
        a, b = random_operands(m, n, k, dt, "cuda")
        c = poisoned(m, n, dt, "cuda")
        wide_plan(a, b, c, WIDE_TILES[tile], order, p, lambda tm, tn: _slots(order, p, tm, tn))
        err = relative_error(c, a, b)
        assert err == err and err < TOLERANCE[dtype], (m, n, k, err)


@pytest.mark.parametrize("wins", [True, False], ids=["wide wins", "plain wins"])
@pytest.mark.parametrize("m,k", [(640, 14336), (600, 14336), (640, 14335)],
                         ids=["640", "600 ragged M", "A copied (K = 14335)"])
def test_matmul_times_a_composite_tile_at_a_wave_edge(monkeypatch, wins, m, k):
    """At M x 4096 x K (:func:`.waves.wide_for` names 128x(128+32)), the first call times the
    composite tile against the plain plan (the outcome forced here) and keeps the winner per
    signature; repeat calls on fresh operands follow the route it kept (the door broken, so
    they must), and ``describe`` names the tile that ran."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    from swizzlekit.kernels.triton import configs

    monkeypatch.setattr(configs, "_MODE", "model")      # the tier runs SWIZZLEKIT_AUTOTUNE=0
    for cache in (mm.PLANS, mm.ROUTES, mm.WIDE, mm.SPLITS):
        monkeypatch.setattr(cache, "_plans", type(cache._plans)())
    monkeypatch.setattr(mm, "pick_split", lambda run, splits: (run(0), run(1), int(wins))[2])
    n = 4096
    door = mm._check
    for call in range(4):
        if call == 2:                                # from here the route must be followed
            monkeypatch.setattr(mm, "_check", lambda *args: 1 / 0)
        a, b = random_operands(m, n, k, torch.bfloat16, "cuda")
        c = matmul(a, b, out=poisoned(m, n, torch.bfloat16, "cuda"))
        err = relative_error(c, a, b)
        assert err == err and err < mm.TOLERANCE["bfloat16"], (call, err)
    monkeypatch.setattr(mm, "_check", door)
    kept = list(mm.WIDE._plans.values())
    assert len(kept) == 1 and bool(kept[0]) is wins
    told = mm.describe(a, b, out=poisoned(m, n, torch.bfloat16, "cuda"))
    assert told is not None and told["kernel"] == "tma"
    assert (told["config"] == "128x(128+32)x64/s4/w8") is wins
    assert told["copies"] == ("copies" if k % 8 else "")
