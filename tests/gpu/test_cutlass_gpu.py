"""GPU tier: CUTLASS's clustered GEMM, in each of its tiles, against float64 on fresh random
operands, output poisoned with NaN first: B's rows misaligned (N = 5000), ragged M, views with
wider rows, an odd number of M tiles (the last cluster half empty). Skipped off sm_90 or without nvcc."""

import pytest

from swizzlekit.kernels.cuda.cutlass import TILES16

# gpu_slow: nvcc builds CUTLASS's libraries on first use (about a minute each) unless
# SWIZZLEKIT_CACHE holds them; the tier's SWIZZLEKIT_AUTOTUNE=0 never takes their routes
pytestmark = [pytest.mark.gpu, pytest.mark.gpu_slow]
torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def gemm(cutlass_ready):
    from swizzlekit.kernels.cuda import cutlass

    return cutlass.cutlass_matmul


TILES = list(TILES16)                   # every build the route times


@pytest.mark.parametrize("tiles", TILES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=str)
@pytest.mark.parametrize("m,n,k", [(3000, 5000, 4000), (129, 136, 72), (1, 8, 8),
                                   (385, 4096, 1000), (6731, 1560, 520)])
def test_against_float64(gemm, dtype, m, n, k, tiles):
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    a, b = random_operands(m, n, k, dtype, "cuda")
    out = poisoned(m, n, dtype, "cuda")
    assert gemm(a, b, out=out, tiles=tiles) is out
    assert relative_error(out, a, b) < 1e-2
    assert relative_error(gemm(a, b, tiles=tiles), a, b) < 1e-2


@pytest.mark.parametrize("tiles", TILES)
def test_row_strides_wider_than_rows(gemm, tiles):
    from swizzlekit.lab.verify import relative_error

    g = torch.Generator(device="cuda").manual_seed(7)
    a = torch.randn(700, 1032, device="cuda", generator=g).bfloat16()[:, :1000]
    b = torch.randn(1000, 520, device="cuda", generator=g).bfloat16()[:, :512]
    full = torch.full((700, 520), float("nan"), device="cuda", dtype=torch.bfloat16)
    out = full[:, :512]
    gemm(a, b, out=out, tiles=tiles)
    assert relative_error(out, a, b) < 1e-2
    assert torch.isnan(full[:, 512:]).all()            # nothing written past the view


def test_door_on_the_gpu(gemm):
    from swizzlekit.errors import SwizzleKitError

    a = torch.ones(64, 100, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(SwizzleKitError, match="rows of 16-byte multiples"):
        gemm(a, torch.ones(100, 64, device="cuda", dtype=torch.bfloat16))
    a = torch.ones(64, 96, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(SwizzleKitError, match="inner sizes differ"):
        gemm(a, torch.ones(64, 64, device="cuda", dtype=torch.bfloat16))
    with pytest.raises(SwizzleKitError, match="share dtype"):
        gemm(a, torch.ones(96, 64, device="cuda", dtype=torch.float16))


def test_matmul_times_the_clustered_gemm_and_keeps_the_faster(gemm, monkeypatch):
    from swizzlekit.kernels.triton import configs

    # the tier runs SWIZZLEKIT_AUTOTUNE=0, under which the route times nothing
    monkeypatch.setattr(configs, "_MODE", "model")
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    a, b = random_operands(2048, 5000, 4096, torch.bfloat16, "cuda")
    for _ in range(2):                       # the first call times both, the second follows
        out = poisoned(2048, 5000, torch.bfloat16, "cuda")
        assert mm.matmul(a, b, out=out) is out
        assert relative_error(out, a, b) < 1e-2
    kept = mm.CLUSTERED.get(mm.fingerprint((a, b, out), mm._options("auto", "tf32", False, None,
                                                                     None, {})))
    assert kept in (0, *TILES)
    described = mm.describe(a, b, out=out)
    assert described["kernel"] == ("cutlass" if kept else "tma")
    assert not kept or described["config"] == kept
    for _ in range(2):                       # an order asked for: Triton's plan, untimed
        fresh = poisoned(2048, 5000, torch.bfloat16, "cuda")
        assert mm.matmul(a, b, out=fresh, order="grouped", group=8) is fresh
        assert relative_error(fresh, a, b) < 1e-2
    assert mm.describe(a, b, out=fresh, order="grouped", group=8)["kernel"] == "tma"


def test_a_call_kept_on_cutlass_launches_past_the_door(gemm, monkeypatch):
    """A repeat call of a fingerprint kept on CUTLASS launches it without the door's checks,
    into a fresh output where none is given and into ``out`` where one is."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    monkeypatch.setattr(mm, "CLUSTERED", mm.PlanCache(8))
    a, b = random_operands(300, 1000, 512, torch.float16, "cuda")
    options = mm._options("auto", "tf32", False, None, None, {})
    for tiles in TILES:
        out = poisoned(300, 1000, torch.float16, "cuda")
        for given in (None, out):
            mm.CLUSTERED.put(mm.fingerprint((a, b, given), options), tiles)
        fresh = [mm.matmul(a, b) for _ in range(2)]
        assert mm.matmul(a, b, out=out) is out
        assert fresh[0].data_ptr() != fresh[1].data_ptr()
        assert all(relative_error(c, a, b) < 1e-2 for c in (*fresh, out))
        assert mm.describe(a, b) == {**mm.describe(a, b), "kernel": "cutlass", "config": tiles}
