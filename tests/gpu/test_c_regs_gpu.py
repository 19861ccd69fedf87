"""GPU tier: TF32 with C stored from registers (``matmul_configs.C_REGS_TILES``): ``matmul``'s
first-call pick between them and the autotuned config, each outcome forced, on a row-major B
copied K-major, a B given K-major, and a ragged C; the route repeat calls follow and
``describe``. float64 references, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("wins", [True, False], ids=["registers win", "autotuned wins"])
@pytest.mark.parametrize("m,n,k,kmajor", [(2600, 4096, 1024, False), (1000, 3000, 1000, True),
                                          (1500, 3001, 2000, True)],
                         ids=["B copied K-major", "B K-major", "C rows ragged"])
def test_tf32_times_c_from_registers(monkeypatch, past_the_door, wins, m, n, k, kmajor):
    from swizzlekit.kernels.triton import configs
    from swizzlekit.kernels.triton import first_call
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.matmul_configs import C_REGS_TILES
    from swizzlekit.lab.verify import poisoned

    monkeypatch.setattr(configs, "_MODE", "model")      # the tier runs SWIZZLEKIT_AUTOTUNE=0
    for cache in (mm.PLANS, mm.ROUTES, mm.REGS, mm.SPLITS, mm.LAST_WAVE):
        monkeypatch.setattr(cache, "_plans", type(cache._plans)())
    monkeypatch.setattr(first_call, "pick_split", lambda run, splits: (
        [run(s) for s in splits], 1 if wins else 0)[1])
    torch.backends.cuda.matmul.allow_tf32 = False
    a, b = past_the_door(lambda: (torch.randn(m, k, device="cuda"),
                                  torch.randn(n, k, device="cuda").T if kmajor
                                  else torch.randn(k, n, device="cuda")), "tf32")
    kept = list(mm.REGS._plans.values())
    assert kept == [wins]
    told = mm.describe(a, b, out=poisoned(m, n, torch.float32, "cuda"))
    assert told is not None and told["kernel"] == "tma"
    bm, bn, bk, s, w = C_REGS_TILES[0]
    assert (told["config"] == f"{bm}x{bn}x{bk}/s{s}/w{w}") is wins
    assert told["c_registers"] is wins and told["c_masked"] == (not wins and n % 4 != 0)
    assert told["b_kmajor_copy"] == (not kmajor)
