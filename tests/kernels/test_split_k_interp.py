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


def _tail(M: int, N: int) -> int:
    """How many tiles of the interpreter's config (``configs.INTERPRETER_TILE``) a tail split
    of M x N splits: those of the last, partial wave of INTERPRET_WAVE slots."""
    from swizzlekit.kernels.triton.configs import INTERPRETER_TILE
    from swizzlekit.kernels.triton.split_k import INTERPRET_WAVE

    bm, bn = INTERPRETER_TILE[:2]
    return (-(-M // bm) * -(-N // bn)) % INTERPRET_WAVE


@pytest.mark.parametrize("tma", [False, True])
@pytest.mark.parametrize("order,params", [("grouped", {}), ("hilbert", {}),
                                          ("cutlass", {"log_tile": 1})])
def test_matmul_tail_split_against_float64(tma, order, params):
    """``split_k="tail"``: the whole tiles run once, the last partial wave's split 4 ways
    (in the interpreter a wave is INTERPRET_WAVE slots), ragged at every edge, under orders
    whose launch slots are the tiles and orders with slots outside the grid; twice, the
    counters zero after each."""
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul

    assert _tail(40, 100) == 2                    # 8 tiles: 6 whole, 2 split
    for _ in range(2):
        err = check_matmul(40, 100, 520, torch.float32, order, device="cpu",
                           precision="ieee", tma=tma, split_k="tail", **params)
        assert err == err and err < TOLERANCE["ieee"]
        assert _counters_zero()


@pytest.mark.parametrize("tma", [False, True])
def test_scaled_tail_split_against_float64(tma):
    from swizzlekit.kernels.triton.scaled import TOLERANCE
    from swizzlekit.lab.verify import check_scaled_matmul

    assert _tail(100, 40) == 2
    err = check_scaled_matmul(100, 40, 528 if tma else 520, device="cpu",
                              out_dtype=torch.bfloat16, tma=tma, rowwise=True, split_k="tail")
    assert err == err and err < TOLERANCE["bfloat16"], err
    assert _counters_zero()


def test_tail_split_equals_its_oracle_tile_by_tile():
    """Oracle: the tail split's C is, bit for bit, whole tiles from the unsplit run and tail
    tiles from a run that splits every tile 4 ways (both add in the same order)."""
    from swizzlekit.kernels.triton.configs import INTERPRETER_TILE
    from swizzlekit.kernels.triton.matmul import matmul
    from swizzlekit.kernels.triton.split_k import INTERPRET_WAVE
    from swizzlekit.lab.verify import random_operands

    a, b = random_operands(64, 160, 512, torch.float32, "cpu")
    whole = matmul(a, b, "row", precision="ieee", tma=False)
    split = matmul(a, b, "row", precision="ieee", tma=False, split_k=4)
    tail = matmul(a, b, "row", precision="ieee", tma=False, split_k="tail")
    assert not torch.equal(whole, split)          # the orders of the sums differ somewhere
    bm, bn = INTERPRETER_TILE[:2]
    tn = 160 // bn
    tiles = (64 // bm) * tn
    first = tiles - tiles % INTERPRET_WAVE
    assert 0 < first < tiles
    for slot in range(tiles):
        m, n = divmod(slot, tn)
        want = split if slot >= first else whole
        got = tail[m * bm:(m + 1) * bm, n * bn:(n + 1) * bn]
        assert torch.equal(got, want[m * bm:(m + 1) * bm, n * bn:(n + 1) * bn]), slot


def test_tail_gain_is_the_waves_arithmetic():
    """Exhaustive over small grids: the gain is 1 - (full + ceil(4 r w) / 4 w) / (full + 1)
    recomputed by counting quarter-tile waves, and never negative."""
    from fractions import Fraction

    from swizzlekit.kernels.triton.split_k import TAIL_SPLIT, tail_gain

    for wave in range(1, 20):
        for tiles in range(1, 80):
            full, rest = divmod(tiles, wave)
            if rest == 0 or full == 0:
                assert tail_gain(tiles, wave) == 0.0
                continue
            quarters = rest * TAIL_SPLIT                  # pieces of a quarter tile each
            waves = Fraction(full) + Fraction(-(-quarters // wave), TAIL_SPLIT)
            assert abs(tail_gain(tiles, wave) - float(1 - waves / (full + 1))) < 1e-12
            assert tail_gain(tiles, wave) >= 0


@pytest.mark.parametrize("bad", ["tails", "TAIL", 2.5])
def test_bad_split_names_are_refused(bad):
    from swizzlekit.kernels.triton.matmul import matmul

    with pytest.raises(SwizzleKitError, match="'tail' or None"):
        matmul(torch.randn(3, 4), torch.randn(4, 2), split_k=bad)
    with pytest.raises(SwizzleKitError, match="does not combine with persistent"):
        matmul(torch.randn(3, 4), torch.randn(4, 2), split_k="tail", persistent=True)


def test_every_gpu_config_fits_the_tail_workspace(gpu_config_lists):
    """A tail split's workspace holds a wave of TAIL_MAX_AREA tiles per split: every config
    of the GPU's lists, 16-bit, fp32 and fp8, is at most that large."""
    from swizzlekit.kernels.triton import matmul_configs, scaled_configs
    from swizzlekit.kernels.triton.split_k import TAIL_MAX_AREA

    lists = (matmul_configs._configs(swap=True, flat=True), scaled_configs._configs(flat=True))
    areas = [c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"] for configs in lists for c in configs]
    assert len(areas) > 40 and max(areas) == TAIL_MAX_AREA


def test_only_gpu_calls_of_a_poor_last_wave_time_a_tail_split(monkeypatch):
    """``split_k=None`` times the tail split beside S = 1 (and 2 at M <= 512) where the
    waves say it may pay, keeps the fastest (here, by fake timings, the tail), and times
    nothing off the GPU or for a split given."""
    import triton.testing

    from swizzlekit.kernels.triton.split_k import TAIL_PLAN, resolve

    class Picks(dict):
        put = dict.__setitem__

    timed = []

    def run(split):
        timed.append(split)

    def bench(fn, **kwargs):                     # the tail split runs fastest
        fn()
        return {1: 3.0, 2: 2.0, TAIL_PLAN: 1.0}[timed[-1]]

    monkeypatch.setattr(triton.testing, "do_bench", bench)
    # 256 x 14336 x 4096 on 132 SMs: 224 tiles of 128 x 128, a last wave of 0.70
    picks = Picks()
    assert resolve(None, picks, ("sig",), 256, 14336, 4096, False, run, 132) == TAIL_PLAN
    assert set(timed) == {1, 2, TAIL_PLAN} and picks[("sig",)] == TAIL_PLAN
    timed.clear()
    assert resolve(None, Picks(), ("sig",), 4096, 4096, 4096, False, run, 132) == 1
    assert resolve(None, Picks(), None, 256, 14336, 4096, False, run, 132) == 1     # no GPU
    assert resolve("tail", Picks(), None, 256, 14336, 4096, False, run, 0) == TAIL_PLAN
    assert not timed
