"""TF32 with C stored from registers (``matmul_configs.C_REGS``): which calls take it, which
configs the prune keeps for it, and the TMA kernel's stores of C by pointer under that
``C_PTR`` value, against float64 in Triton's interpreter (NaN-poisoned outputs)."""

import itertools

import pytest

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("elem", [1, 2, 4])
@pytest.mark.parametrize("precision", ["tf32", "ieee"])
@pytest.mark.parametrize("b_kmajor", [False, True])
@pytest.mark.parametrize("persistent", [False, True])
def test_only_tf32_on_b_kmajor_one_tile_a_program_takes_it(elem, precision, b_kmajor,
                                                             persistent):
    from swizzlekit.kernels.triton.matmul_configs import _swap_ab, c_regs_ok

    ok = c_regs_ok(elem, precision, b_kmajor, persistent)
    assert ok == (elem == 4 and precision == "tf32" and b_kmajor and not persistent)
    if ok:                          # the plain kernel, never Cᵀ = Bᵀ Aᵀ
        assert not _swap_ab(elem, precision, b_kmajor, 4096)


@pytest.mark.parametrize("M,N", [(4096, 4096), (2500, 3001), (16, 4096)])
@pytest.mark.parametrize("c_ptr", [False, True, 2])
def test_the_prune_keeps_the_c_regs_tiles_for_c_regs_alone(M, N, c_ptr, monkeypatch):
    """Under ``C_PTR = C_REGS`` the TMA kernel's prune keeps exactly the tiles of
    :data:`C_REGS_TILES` that fit with no C staged (every one does: 3 stages of 128x256x32
    fp32 take 144 KB); under any other ``C_PTR``, and in the labels the order pick reads,
    none of them."""
    from swizzlekit.kernels.triton import matmul_configs as mc
    from swizzlekit.kernels.triton.configs import _key
    from swizzlekit.kernels.triton.footprint import config_smem

    monkeypatch.setattr(mc, "_INTERPRET", False)
    a = torch.empty(1, 1, dtype=torch.float32)
    kwargs = dict(PRECISION="tf32", B_KMAJOR=True, PERSISTENT=False, ORDER="grouped",
                  SPLIT_K=1, C_PTR=c_ptr)
    kept = mc._prune(mc._configs(swap=True, flat=True), {"M": M, "N": N, "a_desc": a},
                     **kwargs)
    regs = {(*t, False) for t in mc.C_REGS_TILES}
    keys = {_key(c) for c in kept}
    if c_ptr == mc.C_REGS:
        assert keys == regs and not any(c.kwargs["FLAT"] for c in kept)
        assert all(config_smem(c, 4, 0) <= 227 * 1024 < config_smem(c, 4, 4) for c in kept)
    else:
        assert keys and not keys & regs
    labels = mc.config_labels(4, M, False, True)
    assert not {f"{bm}x{bn}x{bk}/s{s}/w{w}" for bm, bn, bk, s, w in mc.C_REGS_TILES} & set(labels)


@pytest.mark.parametrize("m,n,k", [(100, 152, 96), (129, 4097, 65), (1, 8, 8)])
def test_the_tma_kernel_stores_c_from_registers(m, n, k, monkeypatch):
    """``matmul._launch(..., regs=True)`` (what a TF32 call on B K-major by TMA runs) in the
    interpreter: C by masked stores under ``C_PTR = C_REGS``, B K-major, ragged
    edges; the result against float64."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, relative_error

    if not mm._INTERPRET:
        pytest.skip("the interpreter's test (the GPU tier runs the call itself)")
    torch.manual_seed(0)
    k4 = -(-k // 4) * 4                        # TMA: rows of A and Bᵀ 16-byte aligned
    a = torch.randn(m, k4)
    bt = torch.randn(n, k4)
    b = bt.T                                   # K-major B
    c = poisoned(m, n, torch.float32, "cpu")
    go = (a, b, bt, bt, c, None, "grouped", 8, "tf32", False, True, True, False, False)
    mm._launch(*go, 1, None, True)
    err = relative_error(c, a, b)
    assert err == err and err < mm.TOLERANCE["tf32"], err


@pytest.mark.parametrize("mode", ["model", "full", "0"])
@pytest.mark.parametrize("use_tma", [False, True])
@pytest.mark.parametrize("M", [1, 1024, 2047, 2048, 8192])
def test_c_from_registers_is_taken_by_the_rule_or_timed_below_it(mode, use_tma, M,
                                                                 monkeypatch):
    """``c_regs_taken`` and ``c_regs_timed``, which both ``matmul._plan`` and ``kernels
    configs`` ask: where ``c_regs_ok`` and the call takes TMA, taken untimed from
    ``C_REGS_RULE_MIN_M`` rows in every autotune mode (a rule, not a timing); below them
    timed on the first call, where the mode times anything; never both."""
    from swizzlekit.kernels.triton import configs
    from swizzlekit.kernels.triton.matmul_configs import (C_REGS_RULE_MIN_M, C_REGS_TILES,
                                                          c_regs_ok, c_regs_taken, c_regs_timed)

    monkeypatch.setattr(configs, "_MODE", mode)
    for elem, precision, b_kmajor, persistent in itertools.product(
            (1, 2, 4), ("tf32", "ieee"), (False, True), (False, True)):
        ok = use_tma and c_regs_ok(elem, precision, b_kmajor, persistent)
        args = (elem, precision, use_tma, b_kmajor, persistent, M)
        taken, timed = c_regs_taken(*args), c_regs_timed(*args)
        assert taken is (ok and M >= C_REGS_RULE_MIN_M)
        assert timed == (tuple(C_REGS_TILES) if ok and M < C_REGS_RULE_MIN_M
                         and mode != "0" else ())
        assert not (taken and timed)


@pytest.mark.parametrize("faster", [0, 1])
def test_pick_regs_times_both_launches_and_keeps_the_faster(faster, monkeypatch):
    """``first_call.pick_regs`` hands ``pick_split`` the autotuned launch (candidate 0) and the
    one with C from registers (candidate 1, ``regs=True``), and keeps what it picks."""
    from swizzlekit.kernels.triton import first_call

    calls = []

    def launch(*args):
        calls.append(args[2:])

    def pick(run, candidates):
        for cand in candidates:
            run(cand)
        return candidates[faster]

    monkeypatch.setattr(first_call, "pick_split", pick)
    assert first_call.pick_regs(("go0", "go1"), launch) is bool(faster)
    assert calls == [(1, None), (1, None, True)]
