"""GPU tier: TF32 with C stored from registers (``matmul_configs.C_REGS_TILES``): ``matmul``
takes it where ``c_regs_taken`` names it, and runs the autotuned config with the switch
``matmul.C_REGS_ON`` off, on a row-major B copied K-major, a B given K-major, and a ragged C;
the route repeat calls follow and ``describe``. float64 references, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("on", [True, False], ids=["rule on", "switched off"])
@pytest.mark.parametrize("m,n,k,kmajor", [(2600, 4096, 1024, False), (1000, 3000, 1000, True),
                                          (1500, 3001, 2000, True)],
                         ids=["B copied K-major", "B K-major", "C rows ragged"])
def test_tf32_takes_c_from_registers(monkeypatch, past_the_door, on, m, n, k, kmajor):
    from swizzlekit.kernels.triton import configs
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.matmul_configs import C_REGS_TILES
    from swizzlekit.lab.verify import poisoned

    monkeypatch.setattr(configs, "_MODE", "model")      # the tier runs SWIZZLEKIT_AUTOTUNE=0
    for cache in (mm.PLANS, mm.ROUTES, mm.SPLITS, mm.LAST_WAVE):
        monkeypatch.setattr(cache, "_plans", type(cache._plans)())
    monkeypatch.setattr(mm, "C_REGS_ON", on)
    monkeypatch.setattr(mm, "WIDE_TILES_ON", False)     # the plan this test checks, no other
    monkeypatch.setattr(mm, "TAIL_SPLIT_ON", False)
    torch.backends.cuda.matmul.allow_tf32 = False
    a, b = past_the_door(lambda: (torch.randn(m, k, device="cuda"),
                                  torch.randn(n, k, device="cuda").T if kmajor
                                  else torch.randn(k, n, device="cuda")), "tf32")
    told = mm.describe(a, b, out=poisoned(m, n, torch.float32, "cuda"))
    assert told is not None and told["kernel"] == "tma"
    bm, bn, bk, s, w = C_REGS_TILES[0]
    assert (told["config"] == f"{bm}x{bn}x{bk}/s{s}/w{w}") is on
    assert told["c_registers"] is on and told["c_masked"] == (not on and n % 4 != 0)
    assert told["b_kmajor_copy"] == (not kmajor)
