"""The tail split (``TAIL``): the rule of which calls time it (:mod:`.waves`), its plan on the
GPU matching the host's, and the TMA kernel's split of the last partial wave's tiles against
float64 in Triton's interpreter (NaN-poisoned outputs, four programs for four SMs)."""

import pytest

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402


def _oracle(tiles: int, sms: int, steps: int) -> int:
    """tail_ways by enumeration: the most shares of whole K steps, none empty, at most
    ``sms // rem``, that leave the last wave's ``rem`` tiles on at most ``sms`` programs."""
    full, rem = divmod(tiles, sms)
    if full == 0 or rem == 0:
        return 1
    best = 1
    for ways in range(2, steps + 1):
        share = -(-steps // ways)
        if ways <= sms // rem and (ways - 1) * share < steps:
            best = max(best, -(-steps // share))
    return best if best * rem <= sms else 1


@pytest.mark.parametrize("sms", [1, 2, 4, 7, 132])
def test_tail_ways_equals_its_oracle_on_small_domains(sms):
    from swizzlekit.kernels.triton.waves import tail_ways

    for tiles in range(1, 3 * sms + 3):
        for steps in range(1, 40):
            ways = tail_ways(tiles, sms, steps)
            assert ways == _oracle(tiles, sms, steps), (tiles, sms, steps)
            rem = tiles % sms
            if ways > 1:            # every share holds a K step, all on one wave of SMs
                share = -(-steps // ways)
                assert (ways - 1) * share < steps and rem * ways <= sms and tiles >= sms


@settings(max_examples=200, deadline=None)
@given(tiles=st.integers(1, 5000), sms=st.integers(1, 200), steps=st.integers(1, 2000))
def test_tail_ways_keeps_its_shares_nonempty_and_on_one_wave(tiles, sms, steps):
    from swizzlekit.kernels.triton.waves import tail_ways

    ways = tail_ways(tiles, sms, steps)
    if ways > 1:
        share = -(-steps // ways)
        assert (ways - 1) * share < steps <= ways * share
        assert (tiles % sms) * ways <= sms <= tiles


def test_tail_for_names_half_empty_last_waves_only():
    from swizzlekit.kernels.triton.waves import PLAIN_TILE, tail_for, tiles_of

    for M, N, K in [(1163, 4096, 4096), (1201, 14336, 4096), (700, 8192, 8192)]:
        rem = tiles_of(M, N, *PLAIN_TILE) % 132
        assert tail_for(M, N, K, 132) and 0 < rem <= 66
    for M, N, K in [(4096, 4096, 4096), (640, 4096, 14336), (1163, 4096, 64)]:
        assert not tail_for(M, N, K, 132)        # a last wave past half, no full wave, small


@pytest.mark.parametrize("elem,persistent,tma,slots,ok", [
    (2, False, True, True, True), (4, False, True, True, False), (1, False, True, True, True),
    (2, True, True, True, False), (2, False, False, True, False), (2, False, True, False, False)])
def test_tail_route(elem, persistent, tma, slots, ok):
    from swizzlekit.kernels.triton.waves import tail_route

    assert tail_route(elem, persistent, tma, slots) is ok


@pytest.mark.parametrize("m,n,k", [(160, 32, 96), (100, 72, 200), (33, 264, 64), (150, 40, 40)])
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("kmajor", [False, True], ids=["B row-major", "B K-major"])
def test_the_tma_kernel_splits_the_last_wave(m, n, k, dtype, kmajor):
    """``matmul._launch(..., tail=True)`` in the interpreter (four programs): the whole tiles,
    then the last partial wave's split in shares whose partials the last to count adds; the
    result against float64, and the counters left zero for the next launch."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.split_k import tail_buffers
    from swizzlekit.kernels.triton.waves import tail_ways
    from swizzlekit.lab.verify import poisoned, relative_error

    if not mm._INTERPRET:
        pytest.skip("the interpreter's test (the GPU tier runs the call itself)")
    torch.manual_seed(0)
    a = torch.randn(m, k, dtype=dtype)
    bt = torch.randn(n, k, dtype=dtype)
    b = bt.T if kmajor else bt.T.contiguous()     # K-major: TMA reads Bᵀ's rows
    b_op = bt if kmajor else b
    tiles = -(-m // 32) * -(-n // 32)
    ways = tail_ways(tiles, 4, -(-k // 32))
    precision = "ieee" if dtype == torch.float32 else "tf32"
    for _ in range(2):                          # twice: the counters start from zero again
        c = poisoned(m, n, dtype, "cpu")
        go = (a, b, b_op, b_op, c, None, "grouped", 8, precision, False, True, kmajor, False,
              False)
        mm._launch(*go, 1, None, False, True)
        err = relative_error(c, a, b)
        assert err == err and err < (1e-5 if dtype == torch.float32 else 1e-2), (err, ways)
        _, counts = tail_buffers(a.device, 4, mm.MAX_TILE_AREA)
        assert not counts.any()
    assert ways > 1 or (m, n, k) == (100, 72, 200)     # the shapes split, but for one


@pytest.mark.parametrize("m,n,k", [(160, 32, 96), (68, 72, 208), (33, 264, 64)])
@pytest.mark.parametrize("rowwise", [False, True], ids=["per tensor", "per row and column"])
@pytest.mark.parametrize("c_masked", [False, True], ids=["C by TMA", "C by masked stores"])
def test_the_fp8_tma_kernel_splits_the_last_wave(m, n, k, rowwise, c_masked):
    """``scaled._launch(..., tail=True)`` in the interpreter (four programs): the whole
    tiles, then the last partial wave's tiles in shares whose partials the last to count
    adds, scales and stores; against the float64 product of the scaled operands, NaN-poisoned
    C (a view of a wider buffer where C goes by masked stores), the counters left zero."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.kernels.triton.split_k import tail_buffers
    from swizzlekit.kernels.triton.waves import tail_ways
    from swizzlekit.lab.verify import relative_error, scaled_operands

    if not scaled._INTERPRET:
        pytest.skip("the interpreter's test (the GPU tier runs the call itself)")
    torch.manual_seed(1)
    ways = tail_ways(-(-m // 32) * -(-n // 32), 4, -(-k // 32))
    for _ in range(2):                          # twice: the counters start from zero again
        a, b, sa, sb, ref = scaled_operands(m, n, k, "cpu", rowwise=rowwise)
        wide = torch.full((m, n + 3 if c_masked else n), float("nan"), dtype=torch.bfloat16)
        c = wide[:, :n]
        go = (a, b, c, sa.reshape(-1).contiguous(), sb.reshape(-1).contiguous(), None,
              "grouped", 8, rowwise, False, True, c_masked)
        scaled._launch(*go, 1, None, True)
        err = relative_error(c, ref=ref)
        assert err == err and err < scaled.TOLERANCE["bfloat16"], (err, ways)
        _, counts = tail_buffers(a.device, 4, scaled.MAX_TILE_AREA)
        assert not counts.any()
        assert wide[:, n:].isnan().all()        # nothing written past C's columns
    assert ways > 1


@pytest.mark.parametrize("winner", [0, 1, 2])
@pytest.mark.parametrize("wide", [True, False], ids=["wide tiles too", "no wide tiles"])
def test_pick_last_wave_times_the_tail_beside_the_plain_and_wide_plans(winner, wide,
                                                                        monkeypatch):
    """``first_call.pick_last_wave`` hands ``pick_split`` the autotuned launch (0), each wide
    plan, then the tail launch (``tail=True``), and returns what it picks; with no composite
    tile named (``()``), the autotuned launch and the tail alone."""
    from swizzlekit.kernels.triton import first_call

    calls = []

    def launch(*args):
        calls.append(args[14:])

    def pick(run, candidates):
        for cand in candidates:
            run(cand)
        return candidates[winner]

    monkeypatch.setattr(first_call, "pick_split", pick)
    monkeypatch.setattr(first_call, "wide_plan", lambda *args: "wide plan")
    monkeypatch.setattr(first_call, "launch_wide", lambda plan, *args: calls.append(plan))
    a = torch.empty(2, 3)
    go = (a, None, None, torch.empty(3, 4), None, None, "grouped", 8, "tf32", False, True,
          False, False, False)
    if not wide:
        winner = min(winner, 1)
    got = first_call.pick_last_wave(go, ("tile",) if wide else (), True, launch)
    plain, tail = (1, None), (1, None, False, True)
    assert calls == ([plain, "wide plan", tail] if wide else [plain, tail])
    assert got == ([False, "wide plan", first_call.TAIL] if wide else [False, first_call.TAIL])[
        winner]
