"""GPU tier: swizzlekit.kernels.matmul on the GPU, every precision, ragged and square shapes,
transposes, every order, persistent; float64 reference, NaN-poisoned outputs."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

PRECISIONS = [(torch.float16, "tf32", "float16"), (torch.bfloat16, "tf32", "bfloat16"),
              (torch.float32, "tf32", "tf32"), (torch.float32, "ieee", "ieee")]


@pytest.mark.parametrize("dtype,precision,bound", PRECISIONS, ids=lambda x: str(x))
@pytest.mark.parametrize("m,n,k", [(1000, 1100, 300), (4096, 4096, 1024), (129, 4097, 65)])
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
    from swizzlekit.kernels.triton.matmul import TOLERANCE
    from swizzlekit.lab.verify import check_matmul as check

    for dtype, bound in ((torch.float16, "float16"), (torch.bfloat16, "bfloat16")):
        err = check(2000, 1032, 520, dtype, "grouped", tma=tma, group=8)
        assert err == err and err < TOLERANCE[bound]
