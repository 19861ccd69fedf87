"""The composite-tile kernel (:mod:`swizzlekit.kernels.triton.wide_kernel`) in Triton's
interpreter: ragged M, N and K (TMA's zero fill and clipped stores), every kind of launch grid
the orders take, fp16 (the interpreter does no bf16: ``call._check``), against float64 into
NaN-poisoned outputs. bf16 is the GPU tier's (``tests/gpu/test_wide_gpu.py``)."""

import os

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="interpreter tier: runs where there is no GPU")

from swizzlekit.kernels.triton.call import _slots  # noqa: E402
from swizzlekit.kernels.triton.waves import WideTile  # noqa: E402
from swizzlekit.kernels.triton.wide_kernel import wide_plan  # noqa: E402
from swizzlekit.lab.verify import poisoned, random_operands, relative_error  # noqa: E402

#: small composite tiles: 32 rows by 32 + 16 columns, and (32 + 16) rows by 32 + 16 columns,
#: K in steps of 32
TILES = (WideTile(32, 0, 32, 16, 32, 1, 4), WideTile(32, 16, 32, 16, 32, 1, 4))


def _run(a, b, tile, order, p):
    c = poisoned(a.shape[0], b.shape[1], a.dtype, "cpu")
    wide_plan(a, b, c, tile, order, p, lambda tm, tn: _slots(order, p, tm, tn))
    return c


@pytest.mark.parametrize("tile", TILES, ids=lambda t: t.label)
@pytest.mark.parametrize("order,p", [("grouped", 2), ("row", 1), ("cutlass", 1),
                                     ("morton", 0), ("zlayer", 2)])
def test_wide_kernel_matches_float64(tile, order, p):
    # (M, N, K): ragged M (70: 6 rows in the last tile), N (104: 8 columns in the last tile's
    # first box, none in its second), K (72: 8 in the last step); and one of whole tiles
    for m, n, k in [(70, 104, 72), (64, 96, 64), (33, 152, 40)]:
        a, b = random_operands(m, n, k, torch.float16, "cpu")
        c = _run(a, b, tile, order, p)
        err = relative_error(c, a, b)
        assert err == err and err < 1e-2, (m, n, k, err)


@pytest.mark.parametrize("tile", TILES, ids=lambda t: t.label)
def test_wide_kernel_writes_only_the_output(tile):
    """C a view inside a NaN buffer: the clipped stores leave every element outside it NaN."""
    a, b = random_operands(40, 56, 48, torch.float16, "cpu")
    buf = torch.full((48, 64), float("nan"), dtype=torch.float16)
    c = buf[:40, :56]
    wide_plan(a, b, c, tile, "grouped", 2, lambda tm, tn: _slots("grouped", 2, tm, tn))
    assert relative_error(c, a, b) < 1e-2
    assert torch.isnan(buf[40:]).all() and torch.isnan(buf[:, 56:]).all()
