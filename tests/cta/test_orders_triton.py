"""The @triton.jit orders equal the numpy orders, tile by tile (Triton's interpreter in CI,
the GPU where there is one)."""

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")

import triton.language as tl  # noqa: E402

from conftest import HAS_GPU  # noqa: E402
from swizzlekit.cta import order  # noqa: E402
from swizzlekit.cta import triton as tri  # noqa: E402

DEVICE = "cuda" if HAS_GPU else "cpu"


@triton.jit
def _emit(out_ptr, tiles_m, tiles_n, KIND: tl.constexpr, P: tl.constexpr):
    pid = tl.program_id(0)
    if KIND == 0:
        m, n = tri.row(pid, tiles_m, tiles_n)
    elif KIND == 1:
        m, n = tri.col(pid, tiles_m, tiles_n)
    elif KIND == 2:
        m, n = tri.grouped(pid, tiles_m, tiles_n, P)
    elif KIND == 3:
        m, n = tri.grouped_n(pid, tiles_m, tiles_n, P)
    elif KIND == 4:
        m, n = tri.grouped_persistent(pid, tiles_m, tiles_n, P)
    elif KIND == 5:
        m, n = tri.strip(pid, tiles_m, tiles_n, P)
    else:
        m, n = tri.snake(pid, tiles_m, tiles_n)
    tl.store(out_ptr + 2 * pid, m)
    tl.store(out_ptr + 2 * pid + 1, n)


KINDS = [(0, "row", {}), (1, "col", {}), (2, "grouped", {"group": 3}),
         (3, "grouped", {"group": 3, "along": "n"}), (4, "grouped_persistent", {"group": 4}),
         (5, "strip", {"width": 3}), (6, "snake", {})]


@pytest.mark.parametrize("kind,name,params", KINDS, ids=lambda x: str(x))
@pytest.mark.parametrize("tm,tn", [(7, 5), (1, 6), (6, 1), (8, 8), (5, 11)])
def test_triton_order_equals_numpy(kind, name, params, tm, tn):
    out = torch.full((tm * tn * 2,), -1, dtype=torch.int32, device=DEVICE)
    p = params.get("group", params.get("width", 1))
    _emit[(tm * tn,)](out, tm, tn, KIND=kind, P=p)
    got = out.cpu().numpy().reshape(-1, 2)
    assert got.tolist() == order(name, tm, tn, **params).tolist()
