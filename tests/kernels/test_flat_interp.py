"""The flattened configs (one program per SM walking the tiles in one pipelined loop;
matmul_configs.FLAT_TILES) in Triton's interpreter, forced alone: ragged shapes, the orders
they take, B row-major and K-major, 16-bit and fp32, and fp8 with both scalings, against
float64 with NaN-poisoned outputs. The prune keeps them only where they apply."""

import os

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="interpreter tier: runs where there is no GPU")

from swizzlekit.kernels.triton.matmul_configs import FLAT_ORDERS, flat_ok  # noqa: E402
from swizzlekit.kernels.triton.configs import INTERPRETER_TILE  # noqa: E402
from swizzlekit.kernels.triton.tuning import _config_list  # noqa: E402


def _forced(kernel, pre_hook, **kwargs):
    """The kernel's configs replaced by the interpreter's tile, flattened."""
    saved = kernel.configs
    kernel.configs = _config_list([INTERPRETER_TILE], pre_hook, FLAT=True, **kwargs)
    return saved


@pytest.mark.parametrize("order,params", [("grouped", {"group": 2}), ("row", {}),
                                          ("grouped", {"group": 3, "along": "n"}),
                                          ("strip_snake", {"width": 2})], ids=str)
@pytest.mark.parametrize("dtype,precision,bound,b_kmajor", [
    (torch.float16, "tf32", "float16", False), (torch.float16, "tf32", "float16", True),
    (torch.float32, "ieee", "ieee", True)])
def test_matmul_flat(order, params, dtype, precision, bound, b_kmajor):
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    kernel = mm._matmul_tma_kernel
    saved = _forced(kernel, mm._set_blocks, SWAP_AB=False)
    try:
        for m, n, k in [(200, 136, 72), (37, 264, 40)]:        # 4 programs, 7x5 and 2x9 tiles
            a, b = random_operands(m, n, k, dtype, "cpu")
            if b_kmajor:
                b = b.T.contiguous().T
            c = poisoned(m, n, dtype, "cpu")
            mm.matmul(a, b, order, out=c, precision=precision, tma=True, **params)
            err = relative_error(c, a, b)
            assert err == err and err < mm.TOLERANCE[bound], (m, n, k, err)
    finally:
        kernel.configs = saved


@pytest.mark.parametrize("layout", ["offset rows", "column-major"])
def test_matmul_flat_writes_a_c_tma_cannot_store(layout):
    """The flattened loop with C by masked stores (C_PTR): out's rows 135 fp16 elements apart
    (270 bytes) one element in, or out column-major, each a view of a NaN buffer with room to spare, which
    keeps its NaN outside the view; the product matches float64."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned_view, random_operands, relative_error

    kernel = mm._matmul_tma_kernel
    saved = _forced(kernel, mm._set_blocks, SWAP_AB=False)
    try:
        m, n, k = 200, 135, 72
        a, b = random_operands(m, n, k, torch.float16, "cpu")
        b = torch.randn(k, 136, dtype=torch.float16)[:, :n]       # rows TMA reads
        out, outside = poisoned_view(m, n, torch.float16, "cpu", layout)
        mm.matmul(a, b, "grouped", out=out, tma=True, group=2)
        assert outside.isnan().all()
        err = relative_error(out, a, b)
        assert err == err and err < mm.TOLERANCE["float16"], err
    finally:
        kernel.configs = saved


@pytest.mark.parametrize("rowwise", [False, True])
@pytest.mark.parametrize("column_major", [False, True])
def test_scaled_flat(rowwise, column_major):
    """fp8 flattened, C by TMA, or by masked stores into a column-major out."""
    from swizzlekit.kernels.triton import scaled, scaled_kernel
    from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

    kernel = scaled_kernel._scaled_tma_kernel
    saved = _forced(kernel, scaled_kernel._set_blocks)
    try:
        m, n, k = 200, 136, 80
        a, b, sa, sb, ref = scaled_operands(m, n, k, "cpu", rowwise=rowwise)
        c = poisoned(n, m, torch.bfloat16, "cpu").T if column_major else \
            poisoned(m, n, torch.bfloat16, "cpu")
        scaled.scaled_matmul(a, b, sa, sb, "grouped", out=c, tma=True, group=2)
        err = relative_error(c, ref=ref)
        assert err == err and err < scaled.TOLERANCE["bfloat16"]
    finally:
        kernel.configs = saved


def test_flat_only_where_it_applies():
    base = {"PERSISTENT": False, "SPLIT_K": 1}
    assert all(flat_ok({**base, "ORDER": o}) for o in FLAT_ORDERS)
    for order in ("morton", "hilbert", "cutlass", "zlayer"):      # slots outside the grid
        assert not flat_ok({**base, "ORDER": order})
    assert not flat_ok({**base, "ORDER": "grouped", "PERSISTENT": True})
    assert not flat_ok({**base, "ORDER": "grouped", "SPLIT_K": 2})
