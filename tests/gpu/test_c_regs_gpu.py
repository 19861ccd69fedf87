"""GPU tier: TF32 with C stored from registers (``matmul_configs.C_REGS_TILES``): ``matmul``
takes it untimed from ``C_REGS_RULE_MIN_M`` rows (the autotuned config with the switch
``matmul.C_REGS_ON`` off) and times it against the autotuned config below them, each outcome
forced, on a row-major B copied K-major, a B given K-major, and a ragged C; the route repeat
calls follow and ``describe``. float64 references, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("regs", [True, False], ids=["registers", "autotuned"])
@pytest.mark.parametrize("m,n,k,kmajor", [(2600, 4096, 1024, False), (1000, 3000, 1000, True),
                                          (1500, 3001, 2000, True)],
                         ids=["B copied K-major", "B K-major", "C rows ragged"])
def test_tf32_runs_c_from_registers_by_the_rule_or_the_first_call(monkeypatch, past_the_door,
                                                                  regs, m, n, k, kmajor):
    from swizzlekit.kernels.triton import configs
    from swizzlekit.kernels.triton import first_call
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.matmul_configs import C_REGS_RULE_MIN_M, C_REGS_TILES
    from swizzlekit.lab.verify import poisoned

    monkeypatch.setattr(configs, "_MODE", "model")      # the tier runs SWIZZLEKIT_AUTOTUNE=0
    for cache in (mm.PLANS, mm.ROUTES, mm.REGS, mm.SPLITS, mm.LAST_WAVE):
        monkeypatch.setattr(cache, "_plans", type(cache._plans)())
    rule = m >= C_REGS_RULE_MIN_M
    monkeypatch.setattr(mm, "C_REGS_ON", regs or not rule)     # the rule's rows: the switch
    monkeypatch.setattr(first_call, "pick_split", lambda run, splits: (   # below: the pick
        [run(s) for s in splits], 1 if regs else 0)[1])
    torch.backends.cuda.matmul.allow_tf32 = False
    a, b = past_the_door(lambda: (torch.randn(m, k, device="cuda"),
                                  torch.randn(n, k, device="cuda").T if kmajor
                                  else torch.randn(k, n, device="cuda")), "tf32")
    assert list(mm.REGS._plans.values()) == ([] if rule else [regs])
    told = mm.describe(a, b, out=poisoned(m, n, torch.float32, "cuda"))
    assert told is not None and told["kernel"] == "tma"
    bm, bn, bk, s, w = C_REGS_TILES[0]
    assert (told["config"] == f"{bm}x{bn}x{bk}/s{s}/w{w}") is regs
    assert told["c_registers"] is regs and told["c_masked"] == (not regs and n % 4 != 0)
    assert told["b_kmajor_copy"] == (not kmajor)
