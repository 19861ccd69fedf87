"""GPU tier: the order-table GEMM on the GPU, fp16, ragged shapes, every registered order."""

import pytest

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("m,n,k", [(1000, 1100, 300), (4096, 4096, 512), (129, 4097, 64)])
def test_every_order_on_gpu(m, n, k):
    from swizzlekit.cta import ORDERS, order
    from swizzlekit.lab.verify import check_table_gemm as check

    for name in ORDERS:
        err = check(m, n, k, order(name, -(-m // 128), -(-n // 128)))
        assert err == err and err < 1e-2, name
