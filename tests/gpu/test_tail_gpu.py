"""GPU tier: the tail split (``TAIL``, :mod:`swizzlekit.kernels.triton.waves`): the TMA kernel
with the last partial wave's tiles split, in bf16 and fp16, on ragged shapes, C by TMA and by
masked stores; and ``matmul``'s first-call pick with each outcome forced: the route repeat
calls follow, ``describe``, fresh operands. float64 references, NaN-poisoned outputs."""

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
