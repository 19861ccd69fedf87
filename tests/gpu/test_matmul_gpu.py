"""GPU tier: swizzlekit.kernels.matmul on the GPU, every precision, ragged and square shapes,
transposes, every order, persistent; float64 reference, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

PRECISIONS = [(torch.float16, "tf32", "float16"), (torch.bfloat16, "tf32", "bfloat16"),
              (torch.float32, "tf32", "tf32"), (torch.float32, "ieee", "ieee")]


@pytest.mark.parametrize("dtype,precision,bound", PRECISIONS, ids=lambda x: str(x))
@pytest.mark.parametrize("m,n,k", [(1000, 1100, 300), (129, 4097, 65),
                                   pytest.param(4096, 4096, 1024, marks=pytest.mark.gpu_slow)])
def test_precisions_and_shapes(dtype, precision, bound, m, n, k):
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(m, n, k, dtype, "grouped", precision=precision, group=8)
    assert err == err and err < TOLERANCE[bound]


@pytest.mark.parametrize("ta,tb", [(False, True), (True, False), (True, True)])
def test_transposes(ta, tb):
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    err = check(777, 1023, 513, torch.bfloat16, "hilbert", transpose_a=ta, transpose_b=tb)
    assert err == err and err < TOLERANCE["bfloat16"]


@pytest.mark.gpu_slow
def test_every_order_and_persistent():
    from swizzlekit.cta import ORDERS
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    for name in ORDERS:
        for persistent in (False, True):
            err = check(1500, 900, 256, torch.float16, name, persistent=persistent)
            assert err == err and err < TOLERANCE["float16"], (name, persistent)


@pytest.mark.parametrize("tma", [False, True])
def test_pointer_and_tma_forms(tma):
    """N and K multiples of 8, not 16: pointer loads run under the 16-byte hint (VEC 8 for
    16-bit, 4 for fp32; footprint.vec_hint)."""
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    for dtype, precision, bound in ((torch.float16, "tf32", "float16"),
                                    (torch.bfloat16, "tf32", "bfloat16"),
                                    (torch.float32, "ieee", "ieee")):
        err = check(2000, 1032, 520, dtype, "grouped", tma=tma, precision=precision, group=8)
        assert err == err and err < TOLERANCE[bound]


@pytest.mark.parametrize("tma,persistent,dtype,precision,bound", [
    (True, False, torch.bfloat16, "tf32", "bfloat16"),
    (True, True, torch.float16, "tf32", "float16"),
    (False, False, torch.float16, "tf32", "float16"),
    (None, False, torch.float32, "tf32", "tf32"),
    (False, True, torch.float32, "ieee", "ieee")])
def test_repeat_calls_go_through_a_plan(tma, persistent, dtype, precision, bound):
    """The second and later calls of a signature launch through the plan the first one left;
    each on fresh inputs and a poisoned output, against float64."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton.matmul import PLANS, TOLERANCE
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    PLANS.clear()
    m, n, k = 1000, 1032, 520
    for call in range(3):
        a, b = random_operands(m, n, k, dtype, "cuda")
        c = poisoned(m, n, dtype, "cuda")
        matmul(a, b, "hilbert", out=c, tma=tma, persistent=persistent, precision=precision)
        assert len(PLANS) == 1, call            # made by the first call, reused after
        err = relative_error(c, a, b)
        assert err == err and err < TOLERANCE[bound], (call, err)


def test_tma_plans_follow_the_tensors_they_are_given():
    """A TMA plan keeps encoded descriptors per address set (plans.ENCODED_PER_PLAN): more
    operand sets than it keeps, called round-robin twice, each product against float64 into a
    poisoned C. On the Triton this was written for (3.6) the plan must take the direct launch."""
    import triton

    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton.matmul import PLANS, TOLERANCE
    from swizzlekit.kernels.triton.plans import ENCODED_PER_PLAN
    from swizzlekit.lab.verify import random_operands, relative_error

    PLANS.clear()
    m, n, k = 640, 768, 512
    sets = [random_operands(m, n, k, torch.bfloat16, "cuda") for _ in range(ENCODED_PER_PLAN + 3)]
    outs = [torch.empty(m, n, device="cuda", dtype=torch.bfloat16) for _ in sets]
    for _ in range(2):
        for (a, b), c in zip(sets, outs):
            c.fill_(float("nan"))
            matmul(a, b, "grouped", out=c, tma=True, split_k=1, group=8)
            err = relative_error(c, a, b)
            assert err == err and err < TOLERANCE["bfloat16"]
    (plan,) = PLANS._plans.values()
    assert len(plan._encoded) == ENCODED_PER_PLAN
    if triton.__version__.startswith("3.6"):
        assert plan._direct is not None


@pytest.mark.parametrize("split_k", [1, 2])
def test_tma_writes_a_c_it_cannot_store_by_masked_stores(split_k):
    """B K-major and N = 1001 (C's rows 2002 bytes apart, which TMA cannot store): TMA loads
    A and B, and the kernel writes C by masked stores into an offset view of a NaN buffer,
    through the plan's direct launch from the second call on (more operand sets than a plan
    encodes, round robin twice). Nothing is written outside out; each product against
    float64."""
    import triton

    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.plans import ENCODED_PER_PLAN
    from swizzlekit.lab.verify import random_operands, relative_error

    mm.PLANS.clear()
    mm.ROUTES.clear()
    m, n, k = 1000, 1001, 1024
    sets = [(*random_operands(m, n, k, torch.bfloat16, "cuda", transpose_b=True),
             torch.empty(m, n + 1, device="cuda", dtype=torch.bfloat16))
            for _ in range(ENCODED_PER_PLAN + 2)]
    for _ in range(2):
        for a, b, big in sets:
            big.fill_(float("nan"))
            out = big[:, 1:]
            assert matmul(a, b, "grouped", out=out, split_k=split_k, group=8) is out
            assert big[:, 0].isnan().all()
            err = relative_error(out, a, b)
            assert err == err and err < mm.TOLERANCE["bfloat16"]
    (route,) = mm.ROUTES._plans.values()
    assert route.tma and route.c_ptr and route.b_kmajor and not route.copies
    (plan,) = mm.PLANS._plans.values()
    if triton.__version__.startswith("3.6"):
        assert plan._direct is not None and len(plan._encoded) == ENCODED_PER_PLAN


def test_repeat_calls_follow_their_route_past_the_door(monkeypatch):
    """From a fingerprint's second call on, matmul goes fingerprint -> route -> plan without
    the door (here, a door that would fail). Clearing the plans sends the next call the full
    way again. A call on a K-major copy of B (TF32 from tf32_copy_min_m rows) is routed too, and its
    repeat calls copy B afresh. Every product on fresh inputs into a poisoned C (or a fresh
    one), against float64."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    def run(m, n, k, dtype, bound, out=True, **kw):
        a, b = random_operands(m, n, k, dtype, "cuda")
        c = poisoned(m, n, dtype, "cuda") if out else None
        c = matmul(a, b, "grouped", out=c, group=8, **kw)
        err = relative_error(c, a, b)
        assert err == err and err < mm.TOLERANCE[bound], (kw, err)

    mm.PLANS.clear()
    mm.ROUTES.clear()
    door = mm._check
    for tma in (True, False):
        for out in (True, False):
            run(300, 520, 264, torch.bfloat16, "bfloat16", out, tma=tma, split_k=1)   # plan
            run(300, 520, 264, torch.bfloat16, "bfloat16", out, tma=tma, split_k=1)   # route
            monkeypatch.setattr(mm, "_check", lambda *args: 1 / 0)
            run(300, 520, 264, torch.bfloat16, "bfloat16", out, tma=tma, split_k=1)
            monkeypatch.setattr(mm, "_check", door)
    assert len(mm.ROUTES) == 4
    mm.PLANS.clear()                                    # routes name plans by key: full way
    monkeypatch.setattr(mm, "_check", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        run(300, 520, 264, torch.bfloat16, "bfloat16", tma=True, split_k=1)
    monkeypatch.setattr(mm, "_check", door)
    for out in (True, False):                           # TF32 on a K-major copy of B
        for _ in range(2):
            run(mm.tf32_copy_min_m(), 72, 40, torch.float32, "tf32", out, split_k=1)
    assert len(mm.ROUTES) == 6
    assert all(r.kcopy for r in list(mm.ROUTES._plans.values())[-2:])
    monkeypatch.setattr(mm, "_check", lambda *args: 1 / 0)
    for out in (True, False):
        run(mm.tf32_copy_min_m(), 72, 40, torch.float32, "tf32", out, split_k=1)
    monkeypatch.setattr(mm, "_check", door)
    for _ in range(3):          # rows of K = 37 floats: no TMA, so no copy; B read as given
        run(mm.tf32_copy_min_m(), 72, 37, torch.float32, "tf32", split_k=1)
    assert not list(mm.ROUTES._plans.values())[-1].kcopy


def test_a_plan_is_per_signature():
    """A call whose alignment, strides or order differ gets a plan of its own, and every one
    is right: TMA and pointer loads, a misaligned view, a transposed B, another order."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton.matmul import PLANS, TOLERANCE
    from swizzlekit.lab.verify import relative_error

    PLANS.clear()
    m, n, k = 513, 700, 264
    for _ in range(2):
        a0 = torch.randn(m, k, device="cuda", dtype=torch.float16)        # TMA
        big_a = torch.randn(m, k + 1, device="cuda", dtype=torch.float16)  # rows of 530 bytes
        cases = [(a0, "grouped"), (a0, "snake"),
                 (big_a[:, :k], "grouped"),         # pointer loads, base 16-byte aligned
                 (big_a[:, 1:], "grouped")]         # pointer loads, base 2 bytes off
        for a, order in cases:
            for b in (torch.randn(k, n, device="cuda", dtype=torch.float16),
                      torch.randn(n, k, device="cuda", dtype=torch.float16).T):
                c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
                matmul(a, b, order, out=c)
                err = relative_error(c, a, b)
                assert err == err and err < TOLERANCE["float16"], (order, a.data_ptr() % 16)
    assert len(PLANS) == 8


@pytest.mark.parametrize("m,n,k", [(128, 14336, 4096), (256, 4096, 4096)])
def test_a_16_bit_call_then_fp32_at_the_same_sizes(m, n, k):
    """The TMA kernel's autotuner keys on the operands' element size: descriptors carry no
    dtype it sees, and a 16-bit call's config (a deep pipeline, or a plain tile where TF32
    swaps) ran out of shared memory in fp32 when it was reused (H100, 2026-11-25)."""
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    for dtype, bound in [(torch.float16, "float16"), (torch.float32, "tf32"),
                         (torch.bfloat16, "bfloat16"), (torch.float32, "tf32")]:
        err = check(m, n, k, dtype, "grouped", tma=True)
        assert err == err and err < TOLERANCE[bound], dtype


@pytest.mark.parametrize("tma", [False, True])
@pytest.mark.parametrize("m,n,k,split", [(64, 4096, 4096, None), (16, 4104, 3000, 4),
                                         (200, 1000, 777, 3)])
def test_split_k(tma, m, n, k, split):
    """Split-K, as split_k_for suggests (None) or given, on fresh inputs each call: the first
    call compiles, the second goes through the plan; the last split of each tile adds."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton.matmul import TOLERANCE, split_k_for
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    if tma and k % 8:
        pytest.skip("rows of K bf16 elements are not 16-byte aligned: no TMA")
    for _ in range(2):
        a, b = random_operands(m, n, k, torch.bfloat16, "cuda")
        c = poisoned(m, n, torch.bfloat16, "cuda")
        matmul(a, b, out=c, tma=tma, split_k=split or split_k_for(m, n, k, 132))
        err = relative_error(c, a, b)
        assert err == err and err < TOLERANCE["bfloat16"]



@pytest.mark.gpu_slow
@pytest.mark.parametrize("tma", [False, True])
def test_split_k_on_a_full_gpu_is_deterministic(tma):
    """Split 8 ways over 4096 x 4096 (a thousand tiles and more, several waves, splits of a
    tile on different SMs in any order): 20 calls give the same bits (the last split adds
    the planes in plane order, whichever it is), within the float64 bound, and leave every
    counter at zero."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import split_k
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    a, b = random_operands(4096, 4096, 2048, torch.bfloat16, "cuda")
    first = None
    for _ in range(20):
        c = poisoned(4096, 4096, torch.bfloat16, "cuda")
        matmul(a, b, out=c, tma=tma, split_k=8)
        if first is None:
            first = c.clone()
            err = relative_error(c, a, b)
            assert err == err and err < TOLERANCE["bfloat16"]
        assert torch.equal(c, first)
    torch.cuda.synchronize()
    assert all(int(t.abs().sum()) == 0 for t in split_k._COUNTERS.values())

@pytest.mark.gpu_slow
@pytest.mark.parametrize("tma", [False, True])
@pytest.mark.parametrize("dtype,precision,bound", PRECISIONS, ids=lambda x: str(x))
def test_every_tile_config_alone(dtype, precision, bound, tma):
    """Each config the autotuner may choose (narrow small-M tiles and the TMA kernel's swapped
    ones included), forced one at a time, on ragged shapes against float64 (by TMA also one
    whose K loop is shorter than the pipeline): autotuning checks only the winner's result. The configs are those the prune keeps for the call: the swapped
    ones for TF32 on the TMA kernel and for 16-bit with few rows (B row-major here), the plain
    ones otherwise."""
    from swizzlekit.gpus import gpu
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.matmul_configs import _swap_ab
    from swizzlekit.kernels.triton.footprint import config_smem as _smem
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    kernel = mm._matmul_tma_kernel if tma else mm._matmul_kernel
    if not hasattr(kernel, "configs"):
        pytest.skip("this Triton's autotuner keeps its configs elsewhere")
    elem = torch.empty((), dtype=dtype).element_size()
    # 16-bit at 77 rows takes the swapped configs, at 129 the plain ones
    shapes = [(129, 1000, 776) if tma else (129, 1001, 777)]
    if elem == 2:
        shapes.append((77, 1000, 776) if tma else (77, 1001, 777))
    if tma:     # a K loop shorter than the pipeline (40: two steps of 32, the second partial)
        shapes.append((129, 1000, 40))
    configs, tried = list(kernel.configs), 0
    try:
        for m, n, k in shapes:
            swap = _swap_ab(elem, precision, False, m) and (tma or elem == 2)
            for cfg in configs:
                if _smem(cfg, elem, elem, single=tma) > gpu("h200").smem_per_block:
                    continue                   # _prune drops it for this element size too
                if cfg.kwargs["SWAP_AB"] != swap:
                    continue                   # and the configs of the other form
                kernel.configs = [cfg]         # one config: the autotuner launches it as is
                mm.PLANS.clear()
                a, b = random_operands(m, n, k, dtype, "cuda")
                c = poisoned(m, n, dtype, "cuda")
                matmul(a, b, "grouped", out=c, precision=precision, tma=tma, split_k=1,
                       group=8)
                err = relative_error(c, a, b)
                assert err == err and err < mm.TOLERANCE[bound], (cfg, m, err)
                tried += 1
    finally:
        kernel.configs = configs
        mm.PLANS.clear()
    assert tried >= 8


@pytest.mark.gpu_slow
@pytest.mark.parametrize("split,masked", [(2, False), (3, False), (1, True), (2, True)])
def test_every_swapped_tf32_config_the_one_tile_rule_keeps_alone(split, masked):
    """Each swapped TF32 config the TMA kernel's prune keeps for a launch that splits K or
    writes C by masked stores (an output whose rows TMA cannot store), forced one at a time,
    at 256 x 2048 x 1024 (the shape class where 256x128x32 split 2 ways, or with C masked,
    gave wrong sums: docs/data/bench/split_one_tile/; the prune keeps it out of such
    launches, ``matmul_configs._one_tile_may_take``) and at a ragged 200 x 1000 x 776, on
    fresh inputs against float64; a masked C leaves the buffer around it untouched."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton import matmul_configs as mc
    from swizzlekit.lab.verify import poisoned, poisoned_view, random_operands, relative_error

    kernel = mm._matmul_tma_kernel
    if not hasattr(kernel, "configs"):
        pytest.skip("this Triton's autotuner keeps its configs elsewhere")
    configs, tried = list(kernel.configs), 0
    kwargs = dict(PRECISION="tf32", B_KMAJOR=False, PERSISTENT=False, ORDER="grouped",
                  SPLIT_K=split, C_PTR=masked)
    try:
        for m, n, k in [(256, 2048, 1024), (200, 1000, 776)]:
            kept = mc._prune(configs, {"M": m, "N": n, "a_desc": torch.empty(1, 1)}, **kwargs)
            for cfg in kept:
                kernel.configs = [cfg]
                mm.PLANS.clear()
                a, b = random_operands(m, n, k, torch.float32, "cuda")
                if masked:
                    c, outside = poisoned_view(m, n, torch.float32, "cuda")
                else:
                    c, outside = poisoned(m, n, torch.float32, "cuda"), None
                matmul(a, b, "grouped", out=c, precision="tf32", tma=True, split_k=split,
                       group=8)
                err = relative_error(c, a, b)
                assert err == err and err < mm.TOLERANCE["tf32"], (cfg, m, split, err)
                assert outside is None or bool(torch.isnan(outside).all()), (cfg, m, split)
                tried += 1
    finally:
        kernel.configs = configs
        mm.PLANS.clear()
    assert tried >= 4


@pytest.mark.parametrize("tb", [False, True])
@pytest.mark.parametrize("dtype,precision,bound", PRECISIONS, ids=lambda x: str(x))
def test_large_unaligned_rows_run_on_aligned_copies(dtype, precision, bound, tb):
    """M*N*K >= PAD_MIN_MNK with rows of 1043 and 1031 elements: the call runs on padded
    copies (two calls: the second through the plans), into an offset poisoned out."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton.matmul import PAD_MIN_MNK, TOLERANCE
    from swizzlekit.lab.verify import random_operands, relative_error

    m, n, k = 1999, 1031, 1043
    assert m * n * k >= PAD_MIN_MNK
    for _ in range(2):
        a, b = random_operands(m, n, k, dtype, "cuda", transpose_b=tb)
        out = torch.full((m, n + 1), float("nan"), device="cuda", dtype=dtype)[:, 1:]
        matmul(a, b, "hilbert", out=out, precision=precision)
        err = relative_error(out, a, b)
        assert err == err and err < TOLERANCE[bound]


@pytest.mark.parametrize("case", ["A", "B", "AB, B K-major", "AB, split 2",
                                  "A offset, pointer kernel", "A offset, pointer kernel, split 2"])
def test_repeat_calls_on_copies_launch_by_address(monkeypatch, case):
    """A 16-bit call on copies for TMA, once its route is kept (from its third call; the
    first plans the copies' call, the second keeps its route), makes its copies in one
    buffer and launches copy and GEMM on raw addresses (matmul._follow_copies): A alone
    copied (K = 1001; C rows TMA writes), B alone (N = 1001; C by masked stores), both with B
    K-major, both with K split in two, and A an offset view of aligned width at 64 rows (the
    pointer kernel on the copy), whole and split. Fresh operands every call, into a poisoned
    C, against float64."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    m, n, k, tb = {"A": (1024, 1024, 1001, False), "B": (1024, 1001, 1024, False),
                   "AB, B K-major": (1001, 1001, 1001, True),
                   "AB, split 2": (1001, 1001, 1001, False)}.get(case, (64, 4096, 1024, False))
    express = []
    follow = mm._follow_copies
    monkeypatch.setattr(mm, "_follow_copies", lambda route, *args: (
        express.append(route), follow(route, *args))[1])
    for _ in range(4):
        a, b = random_operands(m, n, k, torch.bfloat16, "cuda", transpose_b=tb)
        if case.startswith("A offset"):
            wide = torch.randn(m, k + 1, device="cuda", dtype=torch.bfloat16)
            a = wide[:, 1:]
        split = 2 if "split 2" in case else 1 if m <= 512 else None   # no first-call pick
        c = matmul(a, b, out=poisoned(m, n, torch.bfloat16, "cuda"), split_k=split)
        err = relative_error(c, a, b)
        assert err == err and err < mm.TOLERANCE["bfloat16"], (case, err)
    assert len(express) == 2, case          # the first plans, the second keeps the route
    route = express[0]
    assert route.copies and route.tma is (m >= 128) and route.c_ptr is (n % 8 != 0)
    assert route.split == (2 if "split 2" in case else 1)
    told = mm.describe(a, b, out=poisoned(m, n, torch.bfloat16, "cuda"), split_k=split)
    assert told is not None and told["copies"] == "copies" and told["split_k"] == route.split
    assert told["kernel"] == ("tma" if route.tma else "pointer") and "/w" in told["config"]


@pytest.mark.parametrize("dtype,bound,split_k", [(torch.bfloat16, "bfloat16", 1),
                                                 (torch.bfloat16, "bfloat16", 2),
                                                 (torch.float32, "tf32", None)])
def test_ragged_repeat_calls_route_through_fresh_copies(padded_route, dtype, bound, split_k):
    """Rows that are not 16-byte aligned (K = 1431, N = 1503): bf16 copies A and B into
    128-byte rows and writes C by masked stores (route: copies, c_ptr); TF32 runs on
    zero-padded copies, C through an aligned buffer (route: pad). From the second call on the
    call goes fingerprint -> route -> fresh copies -> plan, past a door that would fail, with
    a split K's workspace sized for the copies. Fresh operands every call into a poisoned C,
    against float64."""
    from swizzlekit.kernels import matmul
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.kernels.triton.matmul_configs import C_REGS
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    m, n, k = 1001, 1503, 1431
    assert m * n * k >= mm.PAD_MIN_MNK

    def run():
        a, b = random_operands(m, n, k, dtype, "cuda")
        c = matmul(a, b, out=poisoned(m, n, dtype, "cuda"), split_k=split_k)
        err = relative_error(c, a, b)
        assert err == err and err < mm.TOLERANCE[bound], (dtype, split_k, err)

    sixteen = dtype == torch.bfloat16
    mm.REGS.clear()
    route = padded_route(mm, run, "copies" if sixteen else "pad")
    # TF32's padded B is K-major: at 1001 rows the first call times C from registers where
    # the mode times anything (matmul_configs.c_regs_timed; the tier's mode times nothing)
    regs = list(mm.REGS._plans.values()) == [True]
    assert route.tma and route.c_ptr == (True if sixteen else C_REGS if regs else False)
