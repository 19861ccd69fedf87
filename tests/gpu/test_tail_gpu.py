"""GPU tier: the tail split (``TAIL``, :mod:`swizzlekit.kernels.triton.waves`): the TMA kernels
with the last partial wave's tiles split, in bf16, fp16 and fp8 (both scalings), on ragged
shapes, C by TMA and by masked stores; and ``matmul``'s and ``scaled_matmul``'s first-call
pick with each outcome forced: the route repeat calls follow, ``describe``, fresh operands.
float64 references, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("c_strided", [False, True], ids=["C by TMA", "C by masked stores"])
def test_tail_kernel_matches_float64(dtype, c_strided):
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.split_k import tail_buffers
    from swizzlekit.lab.verify import random_operands, relative_error

    dt = getattr(torch, dtype)
    # 1163 rows: 11 in the last tile; K = 1000: 40 in the last step of 64; 16 rows: fewer
    # tiles than SMs (one wave, none split); 8192 x 8192 x 72: two K steps for many shares
    for m, n, k in [(1163, 4096, 4096), (1201, 14336, 1000), (700, 8192, 520), (16, 4096, 512),
                    (2200, 8192, 72)]:
        a, b = random_operands(m, n, k, dt, "cuda")
        wide = torch.full((m, n + 3 if c_strided else n), float("nan"), dtype=dt, device="cuda")
        c = wide[:, :n]
        go = (a, b, b, b, c, None, "grouped", 8, "tf32", False, True, False, False, False)
        mm._launch(*go, 1, None, False, True)
        err = relative_error(c, a, b)
        assert err == err and err < mm.TOLERANCE[dtype], (m, n, k, err)
        _, counts = tail_buffers(a.device, torch.cuda.get_device_properties(0)
                                 .multi_processor_count, mm.MAX_TILE_AREA)
        assert not counts.any()                      # zero again for the next launch


@pytest.mark.parametrize("wins", [True, False], ids=["tail wins", "plain wins"])
@pytest.mark.parametrize("m,n,k", [(1163, 4096, 4096), (1201, 4000, 4000), (2500, 4096, 8192),
                                   (1999, 4097, 3001)],
                         ids=["1163", "B's rows of 8000 bytes", "no composite tile timed",
                              "A and B copied for TMA"])
def test_matmul_times_a_tail_split(monkeypatch, past_the_door, wins, m, n, k):
    """Where :func:`.waves.tail_for` names a tail split, the first call times it against the
    plain plan and the composite tiles (the outcome forced here) and keeps the winner per
    signature; repeat calls on fresh operands follow the route it kept (the door broken, so
    they must), and ``describe`` says whether the tail split ran."""
    from swizzlekit.kernels.triton import configs, first_call
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.waves import tail_for
    from swizzlekit.lab.verify import poisoned, random_operands

    monkeypatch.setattr(configs, "_MODE", "model")      # the tier runs SWIZZLEKIT_AUTOTUNE=0
    for cache in (mm.PLANS, mm.ROUTES, mm.LAST_WAVE, mm.SPLITS):
        monkeypatch.setattr(cache, "_plans", type(cache._plans)())
    assert tail_for(m, n, k, torch.cuda.get_device_properties(0).multi_processor_count)
    seen = []

    def pick(run, candidates):
        seen.append(len(candidates))
        for cand in candidates:
            run(cand)
        return candidates[-1] if wins else 0            # the tail split is the last candidate

    monkeypatch.setattr(first_call, "pick_split", pick)
    a, b = past_the_door(lambda: random_operands(m, n, k, torch.bfloat16, "cuda"), "bfloat16")
    assert len(seen) == 1 and seen[0] >= 2              # one first call, the tail among them
    kept = list(mm.LAST_WAVE._plans.values())
    assert len(kept) == 1 and (kept[0] is first_call.TAIL) is wins
    told = mm.describe(a, b, out=poisoned(m, n, torch.bfloat16, "cuda"))
    assert told is not None and told["kernel"] == "tma" and told["tail_split"] is wins


@pytest.mark.parametrize("rowwise", [False, True], ids=["per tensor", "per row and column"])
@pytest.mark.parametrize("c_strided", [False, True], ids=["C by TMA", "C by masked stores"])
def test_fp8_tail_kernel_matches_float64(rowwise, c_strided):
    """``scaled._launch(..., tail=True)``: the fp8 TMA kernel with the last partial wave's
    tiles split, scaled in the epilogue of the share that adds them; against the float64
    product of the scaled operands, into NaN-poisoned C, the counters zero afterwards."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.kernels.triton.split_k import tail_buffers
    from swizzlekit.lab.verify import relative_error, scaled_operands

    # 6016 x 768: 141 tiles of 128x256, 282 of 128x128 (a last wave of 9 or 18); K = 2432:
    # 19 steps of 128; 1163 rows: 11 in the last tile; 16 rows: one wave, none split
    for m, n, k in [(6016, 768, 2432), (1163, 4096, 4096), (700, 8192, 528), (16, 4096, 512)]:
        a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=rowwise)
        wide = torch.full((m, n + 3 if c_strided else n), float("nan"), dtype=torch.bfloat16,
                          device="cuda")
        c = wide[:, :n]
        go = (a, b, c, sa.reshape(-1).contiguous(), sb.reshape(-1).contiguous(), None,
              "grouped", 8, rowwise, False, True, c_strided)
        scaled._launch(*go, 1, None, True)
        err = relative_error(c, ref=ref)
        assert err == err and err < scaled.TOLERANCE["bfloat16"], (m, n, k, err)
        _, counts = tail_buffers(a.device, torch.cuda.get_device_properties(0)
                                 .multi_processor_count, scaled.MAX_TILE_AREA)
        assert not counts.any()


@pytest.mark.parametrize("wins", [True, False], ids=["tail wins", "plain wins"])
@pytest.mark.parametrize("m,n,k", [(6016, 768, 2432), (1163, 4096, 4096)],
                         ids=["plain plan by pointer loads", "plain plan by TMA"])
def test_scaled_matmul_times_a_tail_split(monkeypatch, wins, m, n, k):
    """Where :func:`.waves.tail_for` names a tail split, an fp8 call's first call times it
    (by TMA) against its plain plan (the outcome forced here) and keeps the winner per
    signature; repeat calls on fresh operands follow the route it kept (the door broken from
    the third, so they must), and ``scaled_describe`` says whether the tail split ran."""
    from swizzlekit.kernels.triton import configs, scaled
    from swizzlekit.kernels.triton.waves import tail_for
    from swizzlekit.lab.verify import relative_error, scaled_operands

    monkeypatch.setattr(configs, "_MODE", "model")      # the tier runs SWIZZLEKIT_AUTOTUNE=0
    for cache in (scaled.PLANS, scaled.ROUTES, scaled.TAILS, scaled.SPLITS):
        monkeypatch.setattr(cache, "_plans", type(cache._plans)())
    assert tail_for(m, n, k, torch.cuda.get_device_properties(0).multi_processor_count,
                    scaled.BLOCK_K_STEP)
    seen = []

    def pick(run, candidates):
        seen.append(tuple(candidates))
        for cand in candidates:
            run(cand)
        return candidates[-1] if wins else candidates[0]

    monkeypatch.setattr(scaled, "pick_split", pick)
    door = scaled._check
    for call in range(4):
        if call == 2:                           # from here the route must be followed
            monkeypatch.setattr(scaled, "_check", lambda *args: 1 / 0)
        a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
        c = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
        scaled.scaled_matmul(a, b, sa, sb, out=c)
        err = relative_error(c, ref=ref)
        assert err == err and err < scaled.TOLERANCE["bfloat16"], (call, err)
    monkeypatch.setattr(scaled, "_check", door)
    assert seen == [(0, 1)]                             # one first call, two candidates
    assert list(scaled.TAILS._plans.values()) == [wins]
    told = scaled.scaled_describe(a, b, sa, sb, out=c)
    assert told is not None and told["tail_split"] is wins
    assert told["kernel"] == "tma" or not wins
