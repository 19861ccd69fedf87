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
@pytest.mark.parametrize("m,n,k", [(300, 200, 70), (129, 257, 64)])
def test_ragged_shapes_under_orders(name, params, m, n, k):
    from swizzlekit.lab.verify import check_table_gemm as check

    o = order(name, -(-m // 128), -(-n // 128), **params)
    err = check(m, n, k, o, device="cpu", dtype=torch.float32)
    assert err == err and err < 1e-5           # NaN (an unwritten tile) fails the first test
