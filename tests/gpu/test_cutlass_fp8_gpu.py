"""GPU tier: CUTLASS's fp8 GEMM in clusters against float64 on fresh scaled e4m3 operands,
output poisoned with NaN first: the shapes the route times, ragged M and N, an odd number of
M tiles (the last cluster half empty), strided views; and the route in ``scaled_matmul``.
Skipped off sm_90 or without nvcc."""

import pytest

# gpu_slow: nvcc builds CUTLASS's libraries on first use (about a minute each) unless
# SWIZZLEKIT_CACHE holds them; the tier's SWIZZLEKIT_AUTOTUNE=0 never takes their routes
pytestmark = [pytest.mark.gpu, pytest.mark.gpu_slow]
torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def gemm(cutlass_ready):
    from swizzlekit.kernels.cuda import cutlass_fp8

    return cutlass_fp8.cutlass_scaled_matmul


@pytest.mark.parametrize("stream_k", [False, True], ids=["whole_tiles", "stream_k"])
@pytest.mark.parametrize("m,n,k", [(256, 14336, 4096), (129, 136, 128), (1, 8, 16),
                                   (385, 1000, 1008), (700, 4104, 4000), (727, 5792, 14064)])
def test_against_float64(gemm, m, n, k, stream_k):
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda")
    out = poisoned(m, n, torch.bfloat16, "cuda")
    assert gemm(a, b, sa, sb, out=out, stream_k=stream_k) is out
    assert relative_error(out, ref=ref) < 1e-2
    again = gemm(a, b, sa, sb, stream_k=stream_k)       # a fresh output, the workspace reused
    assert relative_error(again, ref=ref) < 1e-2


SWAPPED = ["96x128x128/c1x2/swap-ab", "96x128x128/c2x1/swap-ab", "160x128x128/c2x1/swap-ab",
           "192x128x128/c2x1/swap-ab"]


@pytest.mark.parametrize("stream_k", [False, True], ids=["whole_tiles", "stream_k"])
@pytest.mark.parametrize("tiles", SWAPPED)
@pytest.mark.parametrize("m,n,k", [(302, 14976, 1024), (279, 136, 128), (1, 8, 16),
                                   (558, 1000, 1008), (97, 4104, 4000)])
def test_swapped_tiles_against_float64(gemm, tiles, m, n, k, stream_k):
    """D^T = Bt A^T in each swapped build: ragged M and N, one row, an odd tile count in
    clusters along M (the last cluster half empty), D^T written column-major into D."""
    from swizzlekit.kernels.cuda.cutlass_fp8 import SWAPPED as BUILDS
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    assert tiles in BUILDS
    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda")
    out = poisoned(m, n, torch.bfloat16, "cuda")
    assert gemm(a, b, sa, sb, out=out, stream_k=stream_k, tiles=tiles) is out
    assert relative_error(out, ref=ref) < 1e-2


def test_swapped_views_with_wider_rows(gemm):
    """Row strides wider than the rows reach a swapped build as its B's and D's strides."""
    from swizzlekit.lab.verify import relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(300, 512, 992, "cuda")
    wide_a = torch.empty(300, 1024, device="cuda", dtype=a.dtype)
    wide_a[:, :992] = a
    full = torch.full((300, 520), float("nan"), device="cuda", dtype=torch.bfloat16)
    gemm(wide_a[:, :992], b, sa, sb, out=full[:, :512], tiles=SWAPPED[2])
    assert relative_error(full[:, :512], ref=ref) < 1e-2
    assert torch.isnan(full[:, 512:]).all()              # nothing written past the view


def test_scales_are_read_from_the_device_on_every_call(gemm):
    from swizzlekit.lab.verify import relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(300, 512, 256, "cuda")
    out = gemm(a, b, sa, sb)
    sa.mul_(3.0)                                         # the same tensor, a new value
    assert relative_error(gemm(a, b, sa, sb, out=out), ref=ref * 3.0) < 1e-2


def test_views_with_wider_rows(gemm):
    from swizzlekit.lab.verify import relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(500, 512, 992, "cuda")
    wide_a = torch.empty(500, 1024, device="cuda", dtype=a.dtype)
    wide_a[:, :992] = a
    wide_bt = torch.empty(512, 1040, device="cuda", dtype=a.dtype)
    wide_bt[:, :992] = b.T
    full = torch.full((500, 520), float("nan"), device="cuda", dtype=torch.bfloat16)
    out = full[:, :512]
    gemm(wide_a[:, :992], wide_bt[:, :992].T, sa, sb, out=out)
    assert relative_error(out, ref=ref) < 1e-2
    assert torch.isnan(full[:, 512:]).all()              # nothing written past the view


def test_door_on_the_gpu(gemm):
    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.lab.verify import scaled_operands

    a, b, sa, sb, _ = scaled_operands(64, 64, 64, "cuda", rowwise=True)
    with pytest.raises(SwizzleKitError, match="scale_a must be one float32 value"):
        gemm(a, b, sa, sb)
    a, b, sa, sb, _ = scaled_operands(64, 64, 64, "cuda")
    with pytest.raises(SwizzleKitError, match="a must be row-major and b K-major"):
        gemm(a, b.contiguous(), sa, sb)
    wide = torch.zeros(64, 80, device="cuda").to(a.dtype)
    with pytest.raises(SwizzleKitError, match="K a multiple of 16"):   # rows 80 bytes apart,
        gemm(wide[:, :72], wide[:, :72].T, sa, sb)                      # 72 long
    with pytest.raises(SwizzleKitError, match="N must be a multiple of 8"):
        gemm(a, b[:, :60], sa, sb)
    with pytest.raises(SwizzleKitError, match="out must be a 64 x 64 bfloat16 tensor"):
        gemm(a, b, sa, sb, out=torch.empty(64, 64, device="cuda", dtype=torch.float16))


@pytest.mark.parametrize("m,n,k", [(512, 14336, 4096), (302, 14976, 7056)],
                         ids=["own_tiles", "swapped"])
def test_scaled_matmul_times_the_clustered_gemm_and_keeps_the_faster(gemm, m, n, k,
                                                                     monkeypatch):
    from swizzlekit.kernels.triton import configs

    # the tier runs SWIZZLEKIT_AUTOTUNE=0, under which the route times nothing
    monkeypatch.setattr(configs, "_MODE", "model")
    from swizzlekit.kernels.triton import scaled as sc
    from swizzlekit.kernels.cuda.cutlass_fp8 import config
    from swizzlekit.kernels.triton.clustered import fp8_candidates
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda")
    for _ in range(2):                       # the first call times both, the second follows
        out = poisoned(m, n, torch.bfloat16, "cuda")
        assert sc.scaled_matmul(a, b, sa, sb, out=out) is out
        assert relative_error(out, ref=ref) < 1e-2
    kept = sc.CLUSTERED.get(sc.fingerprint((a, b, sa, sb, out),
                                           (None, "auto", False, None, None)))
    assert kept == 0 or kept in fp8_candidates(m)
    described = sc.scaled_describe(a, b, sa, sb, out=out)
    assert (described["kernel"] == "cutlass") is bool(kept)
    if kept:
        assert described["config"] == config(*kept)
    assert len(fp8_candidates(m)) == (4 if m == 302 else 2)
    for _ in range(2):                       # an order asked for: Triton's plan, untimed
        fresh = poisoned(m, n, torch.bfloat16, "cuda")
        assert sc.scaled_matmul(a, b, sa, sb, "grouped", out=fresh, group=8) is fresh
        assert relative_error(fresh, ref=ref) < 1e-2
    assert sc.scaled_describe(a, b, sa, sb, "grouped", out=fresh, group=8)["kernel"] != "cutlass"


def test_stream_k_on_two_streams_at_once(gemm):
    """Each stream has its own workspace, so stream-K's partial sums of two GEMMs in flight
    at once never mix."""
    from swizzlekit.lab.verify import relative_error, scaled_operands

    a, b, sa, sb, ref = scaled_operands(727, 5792, 4096, "cuda")
    torch.cuda.synchronize()
    outs = []
    for stream in (torch.cuda.Stream(), torch.cuda.Stream()):
        with torch.cuda.stream(stream):
            outs += [gemm(a, b, sa, sb, stream_k=True) for _ in range(3)]
    torch.cuda.synchronize()
    assert all(relative_error(out, ref=ref) < 1e-2 for out in outs)


@pytest.mark.parametrize("kept", [("128x256x128/c2x1", False),
                                  ("160x128x128/c2x1/swap-ab", True)], ids=["own", "swapped"])
def test_a_call_kept_on_cutlass_launches_past_the_door(gemm, kept, monkeypatch):
    """A repeat call of a fingerprint kept on CUTLASS (its tiles and schedule) launches it
    without the door's checks, into a fresh output where none is given, on the current
    stream."""
    from swizzlekit.kernels.cuda.cutlass_fp8 import config
    from swizzlekit.kernels.triton import scaled as sc
    from swizzlekit.lab.verify import relative_error, scaled_operands

    monkeypatch.setattr(sc, "CLUSTERED", sc.PlanCache(8))
    a, b, sa, sb, ref = scaled_operands(300, 1032, 512, "cuda")
    sc.CLUSTERED.put(sc.fingerprint((a, b, sa, sb, None), (None, "auto", False, None, None)),
                     kept)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        outs = [sc.scaled_matmul(a, b, sa, sb) for _ in range(2)]
    torch.cuda.synchronize()
    assert outs[0].data_ptr() != outs[1].data_ptr()
    assert all(relative_error(out, ref=ref) < 1e-2 for out in outs)
    assert sc.scaled_describe(a, b, sa, sb)["config"] == config(*kept)
