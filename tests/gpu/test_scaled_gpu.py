"""GPU tier: fp8 scaled_matmul on the GPU: per-tensor and row-wise scales, TMA and pointer
loads, every order, persistent, every tile config alone, repeat calls through plans, and the
same figures as torch._scaled_mm; float64 reference, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


def _bound(out_dtype):
    from swizzlekit.kernels.triton.scaled import TOLERANCE

    return TOLERANCE[str(out_dtype)[6:]]


@pytest.mark.parametrize("rowwise", [False, True])
@pytest.mark.parametrize("m,n,k,tma", [(1000, 1104, 304, True), (1000, 1104, 304, None),
                                       (4096, 4096, 1024, None), (129, 4097, 65, None),
                                       (16, 8192, 8192, None), (16, 8192, 8192, True),
                                       (1000, 1103, 304, True), (777, 4095, 1248, None)])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_shapes_scales_and_outputs(m, n, k, tma, rowwise, out_dtype):
    from swizzlekit.lab.verify import check_scaled_matmul

    err = check_scaled_matmul(m, n, k, rowwise=rowwise, out_dtype=out_dtype, tma=tma)
    assert err == err and err < _bound(out_dtype), err


def test_every_order_persistent_and_pointer_loads():
    """Every order in every form, each kernel held to one config (the order does not depend
    on it; the next test covers the configs), so that 48 calls do not autotune 48 times."""
    from swizzlekit.cta import ORDERS
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import check_scaled_matmul

    kernels = [k for k in (scaled._scaled_kernel, scaled._scaled_tma_kernel)
               if hasattr(k, "configs")]
    saved = [list(k.configs) for k in kernels]
    try:
        for k in kernels:
            k.configs = [c for c in k.configs if c.kwargs["BLOCK_M"] == 128][:1]
        for name in ORDERS:
            for form in ({"tma": True}, {"tma": True, "persistent": True}, {"tma": False},
                         {"tma": False, "transpose_a": True}):
                err = check_scaled_matmul(1500, 912, 256, order=name, rowwise=True, **form)
                assert err == err and err < _bound(torch.bfloat16), (name, form, err)
    finally:
        for k, configs in zip(kernels, saved):
            k.configs = configs
        scaled.PLANS.clear()


@pytest.mark.gpu_slow
@pytest.mark.parametrize("tma", [False, True])
def test_every_tile_config_alone(tma):
    """Each config the autotuner may choose, forced one at a time on a ragged shape: the
    autotuner checks only its winner's result."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    kernel = scaled._scaled_tma_kernel if tma else scaled._scaled_kernel
    if not hasattr(kernel, "configs"):
        pytest.skip("this Triton's autotuner keeps its configs elsewhere")
    m, n, k = (129, 1000, 784) if tma else (129, 1001, 777)
    configs = list(kernel.configs)
    try:
        for cfg in configs:
            kernel.configs = [cfg]
            scaled.PLANS.clear()
            a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
            c = poisoned(m, n, torch.bfloat16, "cuda")
            scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma)
            err = relative_error(c, ref=ref)
            assert err == err and err < _bound(torch.bfloat16), (cfg, err)
    finally:
        kernel.configs = configs
        scaled.PLANS.clear()


@pytest.mark.parametrize("tma", [False, True])
@pytest.mark.parametrize("m,n,k,split", [(256, 4096, 4096, 2), (129, 4000, 3008, 4),
                                         (4096, 4096, 2048, 8), (300, 1001, 1024, 2)])
def test_split_k(m, n, k, split, tma):
    """K split in one launch (the last split of each tile adds, then scales): within the
    float64 bound, twice (the second call through the plan), the same bits both times."""
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands
    from swizzlekit.kernels.triton.scaled import scaled_matmul

    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
    results = []
    for _ in range(2):
        c = poisoned(m, n, torch.bfloat16, "cuda")
        scaled_matmul(a, b, sa, sb, out=c, tma=tma, split_k=split)
        err = relative_error(c, ref=ref)
        assert err == err and err < _bound(torch.bfloat16), err
        results.append(c)
    assert torch.equal(*results)


@pytest.mark.parametrize("tma", [False, True])
def test_repeat_calls_go_through_a_plan(tma):
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    scaled.PLANS.clear()
    for _ in range(3):                  # fresh operands each time, one signature
        a, b, sa, sb, ref = scaled_operands(1024, 2048, 512, "cuda")
        c = poisoned(1024, 2048, torch.bfloat16, "cuda")
        scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma)
        err = relative_error(c, ref=ref)
        assert err == err and err < _bound(torch.bfloat16)
    assert len(scaled.PLANS) == 1


def test_tma_plans_follow_the_tensors_they_are_given():
    """Three operand sets with their outputs, round-robin, through one TMA plan that encodes
    each set's descriptors once; every product against float64 into a poisoned C."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import relative_error, scaled_operands

    scaled.PLANS.clear()
    sets = [scaled_operands(512, 1024, 768, "cuda", rowwise=True) for _ in range(3)]
    outs = [torch.empty(512, 1024, device="cuda", dtype=torch.bfloat16) for _ in sets]
    for _ in range(3):
        for (a, b, sa, sb, ref), c in zip(sets, outs):
            c.fill_(float("nan"))
            scaled.scaled_matmul(a, b, sa, sb, out=c, tma=True, split_k=1)
            err = relative_error(c, ref=ref)
            assert err == err and err < _bound(torch.bfloat16)
    (plan,) = scaled.PLANS._plans.values()
    assert len(plan._encoded) == 3


@pytest.mark.parametrize("split_k", [1, 2])
def test_a_column_major_out_through_a_plan(split_k):
    """An out that is column-major (TMA cannot store it): TMA loads, C by stores with both of
    its strides, three calls on fresh operands (the second and third through the plan), each
    into a NaN buffer one row longer than out, whose last row stays NaN; against float64."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import relative_error, scaled_operands

    scaled.PLANS.clear()
    scaled.ROUTES.clear()
    m, n, k = 1000, 1024, 512
    for _ in range(3):
        a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
        buffer = torch.full((n + 1, m), float("nan"), device="cuda", dtype=torch.bfloat16)
        out = buffer[:n].T
        scaled.scaled_matmul(a, b, sa, sb, out=out, tma=True, split_k=split_k)
        assert buffer[n].isnan().all()
        err = relative_error(out, ref=ref)
        assert err == err and err < _bound(torch.bfloat16)
    (route,) = scaled.ROUTES._plans.values()
    assert route.tma and route.c_ptr


@pytest.mark.parametrize("rowwise", [False, True])
def test_agrees_with_torch_scaled_mm(rowwise):
    """The same result as cuBLAS's fp8 GEMM (torch._scaled_mm), to the output's rounding."""
    from swizzlekit.kernels.triton.scaled import scaled_matmul
    from swizzlekit.lab.verify import relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(2048, 3072, 1024, "cuda", rowwise=rowwise)
    ours = scaled_matmul(a, b, sa, sb)
    theirs = torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16)
    assert relative_error(ours, ref=theirs.double()) < 1e-2
    assert relative_error(theirs, ref=ref) < _bound(torch.bfloat16)


def test_repeat_calls_follow_their_route_past_the_door(monkeypatch):
    """From a fingerprint's second call on, scaled_matmul skips the door (here, one that
    would fail), by TMA and by pointer loads; scales that are not contiguous are never
    routed. Every product against float64 into a poisoned C."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import relative_error, scaled_operands

    def run(tma, strided_scales=False):
        a, b, sa, sb, ref = scaled_operands(256, 512, 384, "cuda", rowwise=True)
        if strided_scales:
            sa = torch.cat([sa, sa], dim=1)[:, :1]
        c = torch.full((256, 512), float("nan"), device="cuda", dtype=torch.bfloat16)
        scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma, split_k=1)
        err = relative_error(c, ref=ref)
        assert err == err and err < _bound(torch.bfloat16), (tma, err)

    scaled.PLANS.clear()
    scaled.ROUTES.clear()
    door = scaled._check
    for tma in (True, False):
        run(tma)
        run(tma)
        monkeypatch.setattr(scaled, "_check", lambda *args: 1 / 0)
        run(tma)
        monkeypatch.setattr(scaled, "_check", door)
    assert len(scaled.ROUTES) == 2
    for _ in range(3):
        run(False, strided_scales=True)
    assert len(scaled.ROUTES) == 2


@pytest.mark.parametrize("persistent", [False, True])
def test_ragged_repeat_calls_route_through_fresh_copies(padded_route, persistent):
    """A ragged K (rows of 1431 bytes, no TMA) runs on zero-padded copies; from the second
    call on it goes fingerprint -> route (pad) -> fresh copies -> plan, past a door that would
    fail. C's rows (2 x 1503 bytes) go out by masked stores. Fresh operands every call into a
    poisoned C, against float64."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import relative_error, scaled_operands

    m, n, k = 1001, 1503, 1431                  # M*N*K >= FP8_PAD_MIN_MNK
    assert m * n * k >= scaled.FP8_PAD_MIN_MNK

    def run():
        a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        scaled.scaled_matmul(a, b, sa, sb, out=c, persistent=persistent)
        err = relative_error(c, ref=ref)
        assert err == err and err < _bound(torch.bfloat16), (persistent, err)

    padded_route(scaled, run)


@pytest.mark.parametrize("m,n,k,tma,kernel,copies,c_masked", [
    (256, 512, 384, True, "tma", "", False),
    (256, 512, 384, False, "pointer", "", False),
    (1000, 1103, 304, True, "tma", "", True),         # C's rows 2206 bytes: masked stores
    (1001, 1503, 1431, None, "tma", "pad", True)])     # K of 1431 bytes: padded copies
def test_scaled_describe_says_how_the_call_ran(m, n, k, tma, kernel, copies, c_masked):
    """``scaled_describe``: None before a call's route is kept, then the route and plan its
    calls follow (load path, copies, C's stores, a config of the kernel's lists, the split
    asked for); each call checked against float64 into a poisoned C."""
    from swizzlekit.kernels.triton import scaled
    from swizzlekit.lab.verify import relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda")
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    scaled.PLANS.clear()
    scaled.ROUTES.clear()
    assert scaled.scaled_describe(a, b, sa, sb, out=c, tma=tma, split_k=1) is None
    for _ in range(2):
        c.fill_(float("nan"))
        scaled.scaled_matmul(a, b, sa, sb, out=c, tma=tma, split_k=1)
        err = relative_error(c, ref=ref)
        assert err == err and err < _bound(torch.bfloat16), err
    told = scaled.scaled_describe(a, b, sa, sb, out=c, tma=tma, split_k=1)
    assert (told["kernel"], told["copies"], told["c_masked"], told["split_k"]) == (
        kernel, copies, c_masked, 1), told
    bm, bn, rest = told["config"].split("x", 2)
    assert int(bm) in (16, 32, 64, 128, 256) and int(bn) in (16, 32, 64, 128, 256), told
    assert told["order"] and not told["tail_split"] and not told["b_pitch_copy"]
