"""``explain.autotune_plan`` and ``swizzlekit kernels configs``: the configs a call's first run
autotunes over, worked out on the CPU through the kernels' own prune and perf_model. Checked
against the other route to the same lists (``config_labels``, which the order pick uses),
against the model's own ``predict``, and at the door. The GPU's config lists, not the
interpreter's one tile."""

import json

import pytest
from hypothesis import example, given, settings, strategies as st

from swizzlekit.errors import SwizzleKitError

pytest.importorskip("triton")


@pytest.fixture(autouse=True)
def gpu_lists(gpu_config_lists):
    """The GPU's config lists (tests/conftest.py), not the interpreter's one tile."""


def _plan(*args, **kw):
    from swizzlekit.kernels.triton.explain import autotune_plan

    return autotune_plan(*args, **kw)


def _check_invariants(plan):
    from swizzlekit.kernels.triton import choose

    times = [r.seconds for r in plan.configs]
    assert times == sorted(times) and all(t > 0 for t in times)
    assert sum(r.timed for r in plan.configs) == plan.timed >= 1
    flat = sum(r.config.endswith("/flat") for r in plan.configs)
    assert not flat or (plan.kernel == "tma" and not plan.persistent and not plan.swapped)
    assert all(r.config.endswith("/swap") == plan.swapped
               for r in plan.configs if not r.config.endswith("/flat"))
    assert not plan.both_narrow or plan.kernel == "pointer"
    if plan.mode != "model":
        return
    timed = [i for i, r in enumerate(plan.configs) if r.timed]
    if not plan.both_narrow:              # a prefix: top_k, one more per flattened twin
        assert timed == list(range(min(choose.top_k() + flat, len(plan.configs))))
        return
    # both operands narrow: the best-ranked config of each group of stage twins, in rank order
    groups = [choose.stage_twin(r.config) for r in plan.configs]
    firsts = [i for i, g in enumerate(groups) if g not in groups[:i]]
    assert timed == firsts[:choose.narrow_top_k()]


@pytest.mark.parametrize("M,N,K,precision,kernel,persistent", [
    (512, 4096, 4096, "bf16", "tma", False), (64, 4096, 4096, "fp16", "tma", False),
    (64, 4096, 4096, "bf16", "pointer", False), (4096, 4096, 4096, "bf16", "tma", True),
    (4096, 4096, 4096, "tf32", "tma", False), (8192, 1024, 1024, "tf32", "tma", False),
    (300, 2000, 1999, "bf16", "pointer", False), (1024, 1024, 1024, "fp32", "pointer", False)])
def test_same_configs_as_the_order_picks_route(M, N, K, precision, kernel, persistent):
    """The kernels' prune (here) and ``config_labels`` (the order pick's route) keep the same
    configs; the flattened twins come on top, for the TMA kernel one tile per program."""
    from swizzlekit.kernels.triton import matmul_configs as mc
    from swizzlekit.kernels.triton.explain import PRECISIONS

    plan = _plan(M, N, K, precision, kernel, persistent)
    elem = PRECISIONS[precision][0]
    single = kernel == "tma" and not persistent
    plain = {r.config for r in plan.configs if not r.config.endswith("/flat")}
    assert plain == set(mc.config_labels(elem, M, plan.swapped, single))
    flats = {r.config.removesuffix("/flat") for r in plan.configs if r.config.endswith("/flat")}
    assert flats <= plain and (not flats or (single and not plan.swapped))
    if elem == 2 and single and not plan.swapped:        # fp32 tiles are too large for them
        assert flats
    _check_invariants(plan)


def test_seconds_are_the_models_prediction():
    from swizzlekit.kernels.triton import choose

    for N, K in [(2000, 1999), (2001, 2000), (2001, 1999), (2000, 2000)]:   # narrow A, B, both
        plan = _plan(300, N, K, "bf16", "pointer")
        assert len(plan.configs) > 5
        for r in plan.configs:
            assert r.seconds == choose.predict(300, N, K, "16bit", "pointer", r.config,
                                               narrow_a=K % 16 != 0, narrow_b=N % 16 != 0)


@pytest.mark.parametrize("gpu", ["h200", "h100-sxm"])
def test_each_card_is_planned_with_its_own_fit(gpu):
    """The ranking is the card's model (its fit, its preset), and the order pick is made for
    the same card."""
    from swizzlekit.kernels.triton import auto_order, choose, matmul_configs as mc

    plan = _plan(512, 4096, 4096, "bf16", "auto", gpu=gpu)
    assert plan.gpu == gpu
    for r in plan.configs:
        assert r.seconds == choose.predict(512, 4096, 4096, "16bit", plan.model, r.config,
                                           params=choose.fitted(gpu), gpu_name=gpu)
    pick = mc._order_pick(2, 512, 4096, 4096, "tf32", plan.kernel == "tma", False, False, gpu)
    assert (plan.order, plan.order_params) == (pick.order, pick.params)
    labels = mc.config_labels(2, 16384, False, True)
    here = auto_order.pick(16384, 16384, 2048, "16bit", "tma", labels, 2, 2, gpu_name=gpu)
    assert here.config == min(labels, key=lambda c: choose.predict(
        16384, 16384, 2048, "16bit", "tma", c, gpu_name=gpu))


def test_the_two_cards_rank_some_shape_differently():
    """The fits differ where it matters: the H100's and the H200's first picks part on some
    shape of the full suite (else a per-card fit would change nothing)."""
    from swizzlekit.lab.bench import SUITES

    differ = [s for s in SUITES["full"][:12]
              if _plan(*s, "bf16", gpu="h200").configs[0].config
              != _plan(*s, "bf16", gpu="h100-sxm").configs[0].config]
    assert differ


def test_order_is_the_auto_orders_pick():
    from swizzlekit.kernels.triton import matmul_configs as mc, scaled
    from types import SimpleNamespace

    a = SimpleNamespace(element_size=lambda: 2)
    for M, N, K in [(4096, 4096, 4096), (16384, 16384, 2048), (64, 4096, 4096)]:
        for kernel in ("tma", "pointer"):
            plan = _plan(M, N, K, "bf16", kernel)
            assert (plan.order, plan.order_params) == mc._auto_order(
                a, M, N, K, "tf32", kernel == "tma", False, False)
            assert plan.order_reason
    plan = _plan(4096, 4096, 4096, "fp8")
    assert (plan.order, plan.order_params) == scaled._auto_order(4096, 4096, 4096, 2, True,
                                                                 False)


@pytest.mark.parametrize("M,N,K,precision,kernel", [
    (64, 4096, 4096, "bf16", "pointer"),          # 16-bit below TMA_MIN_M
    (1024, 1024, 1024, "fp16", "pointer"),        # 16-bit, M*N*K <= TMA_MIN_MNK
    (128, 4096, 8192, "bf16", "tma"),
    (64, 64, 64, "tf32", "tma"), (64, 64, 64, "fp32", "tma"),     # fp32: always TMA
    (512, 4096, 4096, "fp8", "pointer"), (1024, 4096, 4096, "fp8", "tma"),
    (512, 4096, 4000, "fp8", "tma"),              # K no multiple of POINTER_K
    (100, 1000, 1999, "bf16", "pointer"),         # ragged, below COPY_MIN_MNK: as given
    (32, 8191, 8191, "bf16", "pointer"),          # B ragged, below COPY_B_MIN_M: as given
    (64, 5000, 4000, "bf16", "tma"),              # rows off 32-byte sectors: TMA at any size
    (1000, 1000, 1000, "fp16", "tma"),
])
def test_auto_takes_the_calls_default_path(M, N, K, precision, kernel):
    plan = _plan(M, N, K, precision, "auto")
    assert plan.kernel == kernel and not plan.copies and plan.kernel_shape == (M, N, K)
    assert plan.configs == _plan(M, N, K, precision, kernel).configs


def test_the_size_rules_at_their_edges():
    from swizzlekit.kernels.triton import matmul, scaled

    m, mnk = matmul.TMA_MIN_M, matmul.TMA_MIN_MNK
    assert not matmul.tma_by_size(2, m - 1, 2**20, 2**20) and matmul.tma_by_size(2, m, mnk // m, 2)
    assert not matmul.tma_by_size(2, m, mnk // m, 1) and matmul.tma_by_size(4, 1, 1, 1)
    assert matmul.tma_by_size(2, 1, 8, 8, whole_sectors=False)
    assert scaled.tma_by_size(16, 16, 128, persistent=True)
    assert not scaled.tma_by_size(scaled.FP8_TMA_MIN_M - 1, 2**12, 2**12)
    assert scaled.tma_by_size(scaled.FP8_TMA_MIN_M, 2**12, 2**12)          # wide
    assert scaled.tma_by_size(1, 2**18, 2**17 + 128)                # past FP8_TMA_MIN_MNK


@pytest.mark.parametrize("n,copied,c_masked", [(5000, "A", False), (4999, "AB", True),
                                                (4999 * 2 - 1, "AB", True)])
def test_large_ragged_16bit_calls_copy_what_tma_cannot_read(n, copied, c_masked):
    """16-bit, tma=None: the operands whose rows are no 16-byte multiples are copied into
    128-byte rows at their own sizes (copies._tma_copies), the rest read as given; C's ragged
    rows are written by masked stores; no copy of B in a pitch besides."""
    plan = _plan(3000, n, 4001, "bf16")
    assert (plan.kernel, plan.copies, plan.kernel_shape) == ("tma", False, (3000, n, 4001))
    assert plan.copied == copied and plan.c_masked is c_masked and not plan.b_pitch_copy
    aligned_k = _plan(3000, n, 4000, "bf16")
    assert aligned_k.copied == copied.replace("A", "") and aligned_k.c_masked is c_masked


@pytest.mark.parametrize("M,N,K,copied", [(512, 1001, 1001, "AB"), (48, 8191, 8191, "AB"),
                                          (32, 8192, 8191, "A"), (8191, 16, 4095, "A")])
def test_ragged_16bit_calls_copy_from_copy_min_mnk(M, N, K, copied):
    """From COPY_MIN_MNK (2^28) a 16-bit call copies for TMA; B only from COPY_B_MIN_M rows,
    A at any N."""
    plan = _plan(M, N, K, "fp16")
    assert (plan.kernel, plan.copied, plan.kernel_shape) == ("tma", copied, (M, N, K))


@pytest.mark.parametrize("precision,kernel,copies,shape", [
    ("bf16", "pointer", True, (3000, 5008, 4016)),    # matmul: every operand, K and N to 16
    ("fp8", "auto", True, (3000, 5000, 4016)),    # scaled_matmul: K only, and only tma=None
    ("fp8", "pointer", False, (3000, 5000, 4001)),
    ("tf32", "auto", True, (3000, 5008, 4016)),
])
def test_large_ragged_calls_run_on_aligned_copies(precision, kernel, copies, shape):
    plan = _plan(3000, 5000, 4001, precision, kernel)
    assert plan.copies == copies and plan.kernel_shape == shape
    if copies and kernel == "auto":
        assert plan.kernel == "tma" and not plan.swapped      # TF32's copy of B is K-major


def test_deep_configs_only_up_to_deep_max_m():
    from swizzlekit.kernels.triton.configs import DEEP_MAX_M, DEEP_TILES

    deep = {"{}x{}x{}/s{}/w{}".format(*t) for t in DEEP_TILES}
    assert deep & {r.config for r in _plan(DEEP_MAX_M, 4096, 4096, "bf16").configs}
    assert not deep & {r.config for r in _plan(DEEP_MAX_M + 1, 4096, 4096, "bf16").configs}


def test_fp8_tma_takes_any_n():
    """fp8's B is K-major, so only K bounds the TMA loads; C of a ragged N is stored masked."""
    plan = _plan(1000, 1001, 1024, "fp8", "tma")
    assert plan.model == "fp8_tma" and plan.configs


@pytest.mark.parametrize("gpu", ["h100-sxm", "h200"])
def test_tf32_reads_a_k_major_copy_of_b_from_tf32_copy_min_m_rows(gpu):
    from swizzlekit.kernels.triton.matmul import tf32_copy_min_m

    rows = tf32_copy_min_m(gpu)
    below = _plan(rows - 1, 1024, 1024, "tf32", gpu=gpu)
    at = _plan(rows, 1024, 1024, "tf32", gpu=gpu)
    assert below.swapped and not below.b_kmajor_copy
    assert at.b_kmajor_copy and not at.swapped
    assert not _plan(rows - 1, 1024, 1024, "tf32", "pointer", gpu=gpu).swapped
    copies = _plan(rows, 4095, 1024, "tf32", gpu=gpu)          # aligned copies make B K-major
    assert copies.copies and not copies.b_kmajor_copy


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4096), st.integers(1, 256), st.integers(1, 256),
       st.sampled_from(["bf16", "fp16", "tf32", "fp8"]),
       st.sampled_from(["auto", "tma", "pointer"]), st.booleans())
def test_invariants_on_random_calls(M, n16, k16, precision, kernel, persistent):
    if precision == "fp8" and kernel == "pointer":
        persistent = False
    plan = _plan(M, 16 * n16, 16 * k16, precision, kernel, persistent)
    assert plan.configs
    _check_invariants(plan)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 2048), st.integers(17, 4000), st.integers(17, 4000),
       st.sampled_from(["bf16", "fp16", "fp8"]))
@example(1, 40, 40, "bf16")                     # rows of 8-element multiples: the 16-byte hint
def test_invariants_on_random_ragged_pointer_calls(M, N, K, precision):
    """Rows that are no multiple of 16 elements: one or both operands load narrow, unless
    the 16-byte hint covers them (16-bit, K and N multiples of 8: footprint.vec_hint)."""
    plan = _plan(M, N, K, precision, "pointer")
    b_rows = K if precision == "fp8" else N                # fp8's B is K-major
    hinted = precision != "fp8" and K % 8 == 0 and N % 8 == 0
    assert plan.both_narrow == (not plan.copies and K % 16 != 0 and b_rows % 16 != 0
                                and not hinted)
    _check_invariants(plan)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 1024), st.integers(1, 8192), st.integers(1, 8192),
       st.sampled_from(["bf16", "tf32", "fp8"]), st.booleans(),
       st.sampled_from(["model", "0"]))
@example(512, 4096, 512, "bf16", False, "model")           # the edges: M <= 512, 8 steps of 64
@example(513, 4096, 512, "bf16", False, "model")
@example(512, 4096, 511, "bf16", False, "model")
def test_splits_are_those_the_first_call_times(M, N, K, precision, persistent, mode):
    """``splits``: S = 1 and 2, timed on the first call, exactly where split_k=None times
    them (not persistent, M <= 512, K of at least 8 steps of 64, an autotuning mode); else
    one pass over K. Checked against the rule restated here, not against auto_split."""
    from unittest import mock

    from swizzlekit.kernels.triton import configs

    persistent = persistent and precision != "fp8"          # fp8's pointer loads: none
    with mock.patch.object(configs, "_MODE", mode):
        plan = _plan(M, N, K, precision, "auto", persistent)
    times = not persistent and M <= 512 and -(-K // 64) >= 8 and mode != "0"
    assert plan.splits == ((1, 2) if times else (1,))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4096).map(lambda m: m * 2), st.integers(1, 2048).map(lambda n: n * 8),
       st.integers(1, 2048).map(lambda k: k * 8), st.sampled_from(["bf16", "fp16", "tf32"]),
       st.booleans())
@example(640, 4096, 14336, "bf16", False)                  # wave edges the probe measured
@example(768, 4096, 14336, "fp16", False)
@example(529, 8192, 4096, "bf16", False)
@example(640, 4096, 14336, "bf16", True)
@example(4096, 4096, 4096, "bf16", False)
@example(13990, 280, 3072, "bf16", False)                 # B pitched, a composite tile named
def test_wide_is_the_composite_tile_the_first_call_times(M, N, K, precision, persistent):
    """``wide``: a composite tile exactly where a 16-bit, not persistent call runs the TMA
    kernel on A and B as given or B's pitched copy (no copies for TMA: 16-byte rows here), C
    by TMA, and the wave rule
    names one, on the card's SMs (132 on the H100), in a mode that times first calls;
    restated here, not read from the code."""
    from unittest import mock

    from swizzlekit.kernels.triton import configs
    from swizzlekit.kernels.triton.waves import wide_for

    for mode in ("model", "0"):
        with mock.patch.object(configs, "_MODE", mode):
            plan = _plan(M, N, K, precision, "auto", persistent, gpu="h100-sxm")
        tiles = wide_for(M, N, K, 132)
        expect = (tuple(t.label for t in tiles) if precision != "tf32" and not persistent
                  and mode != "0" and plan.kernel == "tma" and not plan.copies else ())
        assert plan.wide == expect, mode
    if (M, N, K, precision, persistent) == (640, 4096, 14336, "bf16", False):
        assert expect == () and [t.label for t in tiles] == ["128x(128+32)x64/s4/w8",
                                                              "128x(128+64)x64/s4/w8"]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4096).map(lambda m: m * 2), st.integers(1, 2048).map(lambda n: n * 8),
       st.integers(1, 2048).map(lambda k: k * 8),
       st.sampled_from(["bf16", "fp16", "tf32", "fp8"]), st.booleans())
@example(1164, 4096, 4096, "bf16", False)                   # the probe's shapes, nearly
@example(6016, 768, 2432, "fp8", False)                     # fp8: pointer loads, tail by TMA
@example(1164, 4096, 4104, "fp8", False)                    # rows of 4104 bytes: copies
@example(2500, 4096, 8192, "fp16", False)
@example(1164, 4096, 4096, "bf16", True)
@example(1164, 4096, 4096, "tf32", False)
@example(4096, 4096, 4096, "bf16", False)
def test_tail_ways_is_the_split_the_first_call_times(M, N, K, precision, persistent):
    """``tail_ways``: the shares of the last wave's 128x256 tiles exactly where a 16-bit, not
    persistent call runs the TMA kernel (an fp8 one: where TMA can read its operands, as
    given or padded, whichever loads its plain plan takes) under a grouped order and the
    wave rule names a tail split, on the card's SMs (132 on the H100), in a mode that times
    first calls; else 0. Restated here, not read from the code."""
    from unittest import mock

    from swizzlekit.kernels.triton import configs

    fp8 = precision == "fp8"
    for mode in ("model", "0"):
        with mock.patch.object(configs, "_MODE", mode):
            try:
                plan = _plan(M, N, K, precision, "auto", persistent, gpu="h100-sxm")
            except SwizzleKitError as e:            # fp8 rows TMA cannot read, persistent
                assert fp8 and persistent and K % 16 and "persistent" in str(e)
                return
        _, n, k = plan.kernel_shape
        tiles, steps = -(-M // 128) * -(-n // 256), -(-k // (128 if fp8 else 64))
        full, rem = divmod(tiles, 132)
        ways = 1
        if full and rem and M * n * k >= 2**33:
            ways = -(-steps // -(-steps // min(132 // rem, steps)))
        by_tma = k % 16 == 0 if fp8 else plan.kernel == "tma"
        expect = (ways if ways >= 2 and precision != "tf32" and not persistent and mode != "0"
                  and by_tma else 0)
        assert plan.tail_ways == expect, mode
    if (M, N, K, precision, persistent) == (1164, 4096, 4096, "bf16", False):
        with mock.patch.object(configs, "_MODE", "model"):
            assert _plan(M, N, K, precision, "auto", persistent, gpu="h100-sxm").tail_ways == 4


def test_both_narrow_calls_time_one_config_per_group_of_stage_twins():
    """Where both operands load narrow, configs that differ only in stages ran alike (the
    narrow set, docs/data/bench/JOURNAL.md): the default mode times the best of each group."""
    from swizzlekit.kernels.triton import choose

    plan = _plan(275, 2325, 1789, "bf16", "pointer")
    assert plan.both_narrow and not plan.copies
    timed = [r.config for r in plan.configs if r.timed]
    groups = {choose.stage_twin(r.config) for r in plan.configs}
    assert len(groups) < len(plan.configs)                 # this call has stage twins
    assert len({choose.stage_twin(c) for c in timed}) == len(timed)
    assert len(timed) == min(choose.narrow_top_k(), len(groups))
    assert not _plan(275, 2320, 1789, "bf16", "pointer").both_narrow      # B's rows are wide


@pytest.mark.parametrize("mode", ["full", "0"])
def test_the_other_modes_time_all_or_one(mode, monkeypatch):
    from swizzlekit.kernels.triton import configs

    monkeypatch.setattr(configs, "_MODE", mode)
    for shape in [(275, 2325, 1789), (4096, 4096, 4096)]:
        plan = _plan(*shape, "bf16")
        assert plan.timed == (len(plan.configs) if mode == "full" else 1)
        assert plan.configs[0].timed


@pytest.mark.parametrize("args,message", [
    ((0, 64, 64), "M must be at least 1"),
    ((64, 64, 2**31), "K must be at most"),
    ((64, 64, 64, "int8"), "choose one of: bf16, fp16, tf32, fp32, fp8"),
    ((64, 64, 64, "bf16", "cuda"), "choose one of: auto, tma, pointer"),
    ((64, 64, 64, "bf16", "tma", "yes"), "persistent must be True or False"),
    ((64, 64, 63, "bf16", "tma"), "K = 63 in bf16"),
    ((64, 63, 64, "fp16", "tma"), "N = 63 in fp16 .* use kernel='pointer'"),
    ((64, 64, 100, "fp8", "tma"), "K = 100 in fp8"),
    ((64, 64, 64, "fp8", "pointer", True), "no persistent grid"),
    ((64, 64, 60, "fp8", "auto", True), "no persistent grid"),
])
def test_bad_input_is_named(args, message):
    with pytest.raises(SwizzleKitError, match=message):
        _plan(*args)


def test_cli_text_and_json(capsys):
    from swizzlekit.cli import main

    assert main(["kernels", "configs", "--mnk", "512x4096x4096", "--gpu", "h100-sxm"]) == 0
    text = capsys.readouterr().out
    assert "bf16 on h100-sxm" in text and "configs fit" in text
    assert "order: grouped" in text and " yes" in text
    assert "split of K: S = 1 or 2, timed on the first call" in text
    assert main(["kernels", "configs", "--mnk", "64x4096x4096", "--precision", "fp8",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"] == "fp8_pointer" and out["configs"] and out["timed"] >= 1
    for m, says in ((4096, True), (1024, False)):      # TF32 from tf32_copy_min_m rows: 1652
        assert main(["kernels", "configs", "--mnk", f"{m}x4096x4096", "--precision", "tf32",
                     "--gpu", "h100-sxm"]) == 0
        text = capsys.readouterr().out
        assert ("B copied K-major first" in text) is says
        # B K-major, split 1, nothing else timed: C from registers runs, no config is timed
        assert ("C from registers: 128x256x32/s3/w8" in text) is says
        assert ("so here always: the configs above are not timed" in text) is says
        assert (" yes" not in text) is says
    # a TF32 call that swaps and may split: the split leaves out the 256x128 swapped tiles
    assert main(["kernels", "configs", "--mnk", "256x14336x4096", "--precision", "tf32",
                 "--gpu", "h200"]) == 0
    text = capsys.readouterr().out
    assert "256x128x32/s3/w8" in text and "S = 1 or 2" in text
    assert "times none of the swapped tiles of 256x128 or more" in text


@pytest.mark.parametrize("argv", [["--mnk", "64x64"], ["--mnk", "64x64x63", "--kernel", "tma"],
                                  ["--mnk", "64x64x64", "--precision", "int8"],
                                  ["--mnk", "64x64x64", "--kernel", "cuda"],
                                  ["--mnk", "64x64x64", "--gpu", "b300"]])
def test_cli_bad_input_exits_2(argv, capsys):
    from swizzlekit.cli import main

    assert main(["kernels", "configs", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_copy_rules_import_no_triton():
    """``kernels configs`` works the copy rules out on the CPU: ``kernels.triton.copies`` and
    the plan it explains import without Triton (a Triton import fails in this child)."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['triton'] = None\n"
            "from swizzlekit.kernels.triton.explain import autotune_plan\n"
            "from swizzlekit.kernels.triton import copies\n"
            "plan = autotune_plan(1001, 1001, 1001, 'bf16')\n"
            "print(plan.copied, copies.copy_route(2, 1001, 1001, 1001, True, True))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["AB", "copies"]


@pytest.mark.parametrize("mnk,precision,says", [
    ((3000, 5000, 4000), "bf16", "B as a view of a buffer whose rows are a multiple of 64"),
    ((4096, 4096, 4096), "tf32", "pass it K-major"),
    ((1001, 1001, 1001), "bf16", "A and B copied into rows 128 bytes apart"),
    ((4096, 4096, 4096), "bf16", None), ((1024, 4096, 4096), "tf32", None)])
def test_kernels_configs_says_how_to_skip_each_copy_made_on_every_call(mnk, precision, says,
                                                                          capsys):
    """A hint for each copy the plan makes on every call, and only then: its operands'
    rows (the pitch, TMA's 16 bytes) or B's major order (TF32 from tf32_copy_min_m rows);
    the JSON carries the same lines."""
    from swizzlekit.cli import main
    from swizzlekit.kernels.triton.explain import autotune_plan

    plan = autotune_plan(*mnk, precision, "auto", gpu="h100-sxm")
    assert bool(plan.hints) == (says is not None)
    assert len(plan.hints) == (plan.b_pitch_copy + plan.b_kmajor_copy + bool(plan.copied)
                               + plan.copies)
    if says:
        assert any(says in h for h in plan.hints), plan.hints
    m, n, k = mnk
    assert main(["kernels", "configs", "--mnk", f"{m}x{n}x{k}", "--precision", precision,
                 "--gpu", "h100-sxm"]) == 0
    text = capsys.readouterr().out
    assert [line[6:] for line in text.splitlines() if line.startswith("hint: ")] == \
        list(plan.hints)
