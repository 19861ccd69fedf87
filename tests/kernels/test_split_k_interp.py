"""Split-K in one launch (swizzlekit.kernels.triton.split_k) in Triton's interpreter (CI tier
2): the last split of each tile adds the planes and writes C, and leaves its counter at zero.
Checked against float64 on ragged shapes with poisoned outputs, for the 16-bit/fp32 GEMM
(pointer loads and TMA) and the fp8 one, and for bad split counts at the door."""

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="interpreter tier: runs where there is no GPU")

from swizzlekit.errors import SwizzleKitError  # noqa: E402
from swizzlekit.turns import williams_rows  # noqa: E402


def _counters_zero() -> bool:
    from swizzlekit.kernels.triton import split_k

    return all(int(t.abs().sum()) == 0 for t in split_k._COUNTERS.values())


@pytest.mark.parametrize("split", [2, 3, 5])
@pytest.mark.parametrize("tma", [False, True])
def test_matmul_split_against_float64(split, tma):
    """70 x 72 x 200 in fp32 (IEEE): 7 steps of 32 split 2, 3 or 5 ways (5: shares of 2, 2,
    2, 1 and an empty one), ragged at every edge; twice, the counters zero after each."""
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul

    for _ in range(2):
        err = check_matmul(70, 72, 200, torch.float32, "grouped", device="cpu",
                           precision="ieee", tma=tma, split_k=split)
        assert err == err and err < TOLERANCE["ieee"]
        assert _counters_zero()


def test_split_runs_are_bitwise_the_same_and_near_the_unsplit_sum():
    """S = 1 against S = 4 on the same operands: the planes are added in plane order, so the
    split result differs from the unsplit one only by fp32 rounding (a bound, not equality),
    and two split runs are bitwise the same."""
    from swizzlekit.kernels.triton.matmul import matmul
    from swizzlekit.lab.verify import random_operands

    a, b = random_operands(40, 48, 256, torch.float32, "cpu")
    one = matmul(a, b, "row", precision="ieee")
    four = matmul(a, b, "row", precision="ieee", split_k=4)
    again = matmul(a, b, "row", precision="ieee", split_k=4)
    assert torch.equal(four, again)
    assert torch.allclose(one, four, rtol=1e-5, atol=1e-5 * float(one.abs().max()))


@pytest.mark.parametrize("tma", [False, True])
@pytest.mark.parametrize("rowwise", [False, True])
def test_scaled_split_against_float64(tma, rowwise):
    """fp8 with K split 3 ways, scales applied once, after the sum: ragged M and N, K of 7
    steps of 32 (TMA: K = 208, rows of 16 bytes)."""
    from swizzlekit.kernels.triton.scaled import TOLERANCE
    from swizzlekit.lab.verify import check_scaled_matmul

    k = 208 if tma else 200
    err = check_scaled_matmul(100, 72, k, device="cpu", out_dtype=torch.bfloat16, tma=tma,
                              rowwise=rowwise, split_k=3)
    assert err == err and err < TOLERANCE["bfloat16"], err
    assert _counters_zero()


@pytest.mark.parametrize("kwargs,message", [
    ({"split_k": 0}, "split_k must be an integer from 1 to 16"),
    ({"split_k": 17}, "split_k must be an integer from 1 to 16"),
    ({"split_k": True}, "split_k must be an integer from 1 to 16"),
    ({"split_k": 2, "persistent": True, "tma": True}, "does not combine with persistent"),
])
def test_scaled_refuses_bad_splits(kwargs, message):
    from swizzlekit.kernels.triton.scaled import scaled_matmul

    a = torch.randn(4, 16).to(torch.float8_e4m3fn)
    b = torch.randn(3, 16).to(torch.float8_e4m3fn).T
    with pytest.raises(SwizzleKitError, match=message):
        scaled_matmul(a, b, torch.ones(()), torch.ones(()), **kwargs)


def test_counters_grow_and_are_reused():
    from swizzlekit.kernels.triton.split_k import counters

    small = counters(torch.device("cpu"), 10)
    assert small.numel() >= 10 and int(small.sum()) == 0
    assert counters(torch.device("cpu"), 10) is small        # the same set, reused
    big = counters(torch.device("cpu"), 5000)
    assert big.numel() >= 5000 and int(big.sum()) == 0
    assert counters(torch.device("cpu"), 10) is big


def test_pick_split_keeps_the_least_median_of_interleaved_replicates(monkeypatch):
    """``pick_split`` runs each candidate once, then times them in PICK_REPLICATES turns in
    the order of ``turns.turn_order``, and keeps the least median: one slow outlier of the
    faster candidate does not hand the pick to the other (``do_bench`` replaced by scripted
    times)."""
    import triton.testing

    from swizzlekit.kernels.triton import split_k

    script = {0: iter([1.0, 9.0, 1.0, 1.1, 0.9]), 1: iter([1.5, 1.4, 1.6, 1.5, 1.5])}
    order, ran = [], []

    windows = set()

    def bench(fn, **kw):
        fn()
        windows.add((kw["warmup"], kw["rep"], kw["return_mode"]))
        return next(script[order[-1]])

    def run(s):
        order.append(s)
        ran.append(s)

    monkeypatch.setattr(triton.testing, "do_bench", bench)
    assert split_k.pick_split(run, (0, 1)) == 0
    assert ran[:2] == [0, 1]                            # each once first
    timed = ran[2:]
    assert len(timed) == 2 * split_k.PICK_REPLICATES
    assert [timed[2 * t] for t in range(split_k.PICK_REPLICATES)] == [0, 1, 0, 1, 0]
    assert windows == {(split_k.PICK_WARMUP_MS, split_k.PICK_REP_MS, "median")}
    script = {0: iter([2.0] * 5), 1: iter([2.0] * 5)}
    order.clear()
    assert split_k.pick_split(run, (0, 1)) == 0         # a tie: the first
    ran.clear()
    script = {s: iter([1.0] * 5) for s in range(3)}
    split_k.pick_split(run, (0, 1, 2))                  # three: no candidate twice behind one
    rows = williams_rows(3)
    assert ran[3:] == [j for t in range(split_k.PICK_REPLICATES) for j in rows[t % len(rows)]]


def test_pick_split_prints_its_medians_where_asked(monkeypatch, capsys):
    """Under ``SWIZZLEKIT_PRINT_PICKS=1`` a pick prints one line to stderr: each candidate's
    median replicate by name, and the one kept; nothing without it."""
    import triton.testing

    from swizzlekit.kernels.triton import split_k

    def script():
        return {0: iter([1.0, 9.0, 1.0, 1.1, 0.9]), 1: iter([0.5, 0.5, 0.4, 0.6, 0.5])}

    order = []
    times = script()
    def bench(fn, **kw):
        fn()
        return next(times[order[-1]])

    monkeypatch.setattr(triton.testing, "do_bench", bench)
    assert split_k.pick_split(order.append, (0, 1)) == 1
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("SWIZZLEKIT_PRINT_PICKS", "1")
    times = script()
    assert split_k.pick_split(order.append, (0, 1), names=("triton", "cutlass")) == 1
    assert capsys.readouterr().err == ("swizzlekit: first-call pick: triton 1000.0 us, "
                                       "cutlass 500.0 us -> cutlass\n")
    times = script()
    split_k.pick_split(order.append, (0, 1))
    assert capsys.readouterr().err.endswith("0 1000.0 us, 1 500.0 us -> 1\n")


def test_the_workspace_holds_every_block_of_every_tile():
    """``buffers`` sizes each plane for the blocks of any tile of sides 16 to MAX_BLOCK: the
    last block of the last plane, as ``_split_sum`` places it (plane ``cdiv(M, BM) x
    cdiv(N, BN)`` blocks of ``BM x BN``), ends inside the buffer; every shape of a random draw,
    every tile, S from 2 to 16."""
    import random

    from swizzlekit.kernels.triton.split_k import MAX_BLOCK, buffers

    sides = [1 << i for i in range(4, MAX_BLOCK.value.bit_length())]
    rng = random.Random(20261126)
    for _ in range(200):
        M, N, split = rng.randint(1, 2000), rng.randint(1, 2000), rng.randint(2, 16)
        ws, _ = buffers(split, M, N, torch.device("cpu"), None)
        for bm in sides:
            for bn in sides:
                plane = -(-M // bm) * -(-N // bn) * bm * bn
                assert (split - 1) * plane + plane <= ws.numel()


@pytest.mark.parametrize("split", [1, 2, 3])
@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("c_ptr", [False, True])
def test_the_prune_keeps_swapped_tiles_of_one_tile_area_off_split_and_masked_launches(
        split, persistent, c_ptr, monkeypatch):
    """The TMA kernel's prune, on the GPU's config lists, for a TF32 launch (B row-major, so
    swapped): a launch that splits K keeps no swapped tile of ``ONE_TILE_AREA`` or more
    (256x128x32 split 2 ways gave wrong sums on the H200 and the H100), nor does a launch of
    one tile a program whose C is written by masked stores (``C_PTR``; wrong sums there on the
    H100, docs/data/bench/split_one_tile/); both keep smaller swapped ones. Otherwise it keeps
    256x128 where it fits: 3 stages on one tile a program, 2 on a persistent grid, which runs
    such tiles in its loop whatever C's store."""
    from swizzlekit.kernels.triton import matmul_configs as mc
    from swizzlekit.kernels.triton.footprint import ONE_TILE_AREA

    monkeypatch.setattr(mc, "_INTERPRET", False)
    kwargs = dict(PRECISION="tf32", B_KMAJOR=False, PERSISTENT=persistent, ORDER="grouped",
                  SPLIT_K=split, C_PTR=c_ptr)
    kept = mc._prune(mc._configs(swap=True, flat=True),
                     {"M": 256, "N": 14336, "a_desc": torch.empty(1, 1)}, **kwargs)
    assert kept and all(c.kwargs["SWAP_AB"] for c in kept)
    assert min(c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"] for c in kept) < ONE_TILE_AREA
    big = {c.num_stages for c in kept if c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"] >= ONE_TILE_AREA}
    takes = split == 1 and (persistent or not c_ptr)
    assert big == (({2} if persistent else {2, 3}) if takes else set())
