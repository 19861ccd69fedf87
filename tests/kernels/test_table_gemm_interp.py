"""The order-table GEMM in Triton's interpreter on CPU tensors (CI tier 2; conftest sets
TRITON_INTERPRET=1 when there is no GPU)."""

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

from swizzlekit.cta import order  # noqa: E402

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="interpreter tier: runs where there is no GPU")


@pytest.mark.parametrize("name,params", [("row", {}), ("hilbert", {}), ("grouped", {"group": 2}),
                                         ("strip", {"width": 1}), ("zlayer", {"layers": 2})])
# (300, 200, 70): K even, not a multiple of 4 (the kernel's ALIGN hint is 2 elements);
# (200, 264, 72): K and N multiples of 8, not 16 (ALIGN 4, 16 bytes of fp32); (129, 257, 64): N odd
@pytest.mark.parametrize("m,n,k", [(300, 200, 70), (200, 264, 72), (129, 257, 64)])
def test_ragged_shapes_under_orders(name, params, m, n, k):
    from swizzlekit.lab.verify import check_table_gemm as check

    o = order(name, -(-m // 128), -(-n // 128), **params)
    err = check(m, n, k, o, device="cpu", dtype=torch.float32)
    assert err == err and err < 1e-5           # NaN (an unwritten tile) fails the first test


@pytest.mark.parametrize("config", ["64x64x64", "64x128x64"])
@pytest.mark.parametrize("programs", [None, 1, 3, 7])
def test_tile_configs_and_persistent_grids(config, programs):
    """Every tile of a ragged grid written once, whether one CTA per tile or ``programs``
    persistent CTAs walk the order with a stride."""
    from swizzlekit.kernels.triton.table_gemm import tile_config
    from swizzlekit.lab.verify import check_table_gemm as check

    cfg = tile_config(config)
    m, n, k = 200, 300, 100
    o = order("hilbert", -(-m // cfg.bm), -(-n // cfg.bn))
    err = check(m, n, k, o, device="cpu", dtype=torch.float32, config=config,
                persistent=programs is not None, programs=programs)
    assert err == err and err < 1e-5


@pytest.mark.parametrize("launcher,persistent", [("table_gemm", {"persistent": True}),
                                                 ("traced", {})])
def test_bad_calls_are_refused(launcher, persistent):
    """``traced`` shares ``table_gemm``'s door (no GPU needed: both refuse before launching)."""
    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.kernels.triton import table_gemm, table_trace

    launch = getattr(table_trace if launcher == "traced" else table_gemm, launcher)
    a, b = torch.randn(100, 64), torch.randn(64, 100)
    with pytest.raises(SwizzleKitError, match="valid: 64x64x64"):
        launch(a, b, order("row", 1, 1), config="100x100x100")
    with pytest.raises(SwizzleKitError, match="has 1 tiles"):
        launch(a, b, order("row", 1, 1), config="64x64x64")
    with pytest.raises(SwizzleKitError, match="do not multiply"):
        launch(a, b.T[:10], order("row", 1, 1))
    with pytest.raises(SwizzleKitError, match="programs must be at least 1"):
        launch(a, b, order("row", 1, 1), programs=0, **persistent)


def test_a_stand_in_problem_is_specialized_as_the_launch():
    """Every integer argument of the stand-in that resources() compiles falls in the class
    Triton specializes the launch's into: equal to 1, a multiple of 16, or neither (so the
    stand-in compiles the launch's kernel; the GPU tier checks the kernels are equal)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from swizzlekit.kernels.triton.table_gemm import TILE_CONFIGS, _stand_in

    def kind(v):
        return 1 if v == 1 else 16 if v % 16 == 0 else 0

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(list(TILE_CONFIGS)), st.integers(1, 70000), st.integers(1, 70000),
           st.integers(1, 70000), st.one_of(st.none(), st.integers(1, 2000)),
           st.sampled_from(["float16", "bfloat16", "float32", "float8_e4m3fn"]))
    def check(config, M, N, K, programs, dtype):
        cfg = TILE_CONFIGS[config]
        m, n, k, tiles, progs, (align, kmajor) = _stand_in(config, (M, N, K), programs, dtype)
        real_tiles = (-(-M // cfg.bm)) * (-(-N // cfg.bn))
        assert [kind(x) for x in (m, n, k, tiles, progs)] == [
            kind(x) for x in (M, N, K, real_tiles, min(programs or 132, real_tiles))]
        assert m <= max(cfg.bm + 8, 1) + 15 and k <= 2 * cfg.bk + 23     # small, one tile
        # the launch's own hints, which the stand-in's sizes satisfy too
        assert kmajor == (dtype == "float8_e4m3fn" and align > 1)
        assert N % align == 0 and K % align == 0 and n % align == 0 and k % align == 0

    check()
