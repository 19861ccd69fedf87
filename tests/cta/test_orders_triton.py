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
    elif KIND == 6:
        m, n = tri.snake(pid, tiles_m, tiles_n)
    elif KIND == 7:
        m, n = tri.strip_snake(pid, tiles_m, tiles_n, P)
    elif KIND == 8:
        m, n = tri.cutlass(pid, tiles_m, tiles_n, P)
    elif KIND == 9:
        m, n = tri.zlayer(pid, tiles_m, tiles_n, P)
    elif KIND == 10:
        m, n = tri.morton(pid, P)
    else:
        m, n = tri.hilbert(pid, P)
    tl.store(out_ptr + 2 * pid, m)
    tl.store(out_ptr + 2 * pid + 1, n)


KINDS = [(0, "row", {}), (1, "col", {}), (2, "grouped", {"group": 3}),
         (3, "grouped", {"group": 3, "along": "n"}), (4, "grouped_persistent", {"group": 4}),
         (5, "strip", {"width": 3}), (6, "snake", {}), (7, "strip_snake", {"width": 3})]


@pytest.mark.parametrize("kind,name,params", KINDS, ids=lambda x: str(x))
@pytest.mark.parametrize("tm,tn", [(7, 5), (1, 6), (6, 1), (8, 8), (5, 11)])
def test_triton_order_equals_numpy(kind, name, params, tm, tn):
    out = torch.full((tm * tn * 2,), -1, dtype=torch.int32, device=DEVICE)
    p = params.get("group", params.get("width", 1))
    _emit[(tm * tn,)](out, tm, tn, KIND=kind, P=p)
    got = out.cpu().numpy().reshape(-1, 2)
    assert got.tolist() == order(name, tm, tn, **params).tolist()


@pytest.mark.parametrize("kind,name,key,p", [(8, "cutlass", "log_tile", 1), (8, "cutlass", "log_tile", 2),
                                             (9, "zlayer", "layers", 2), (9, "zlayer", "layers", 3)])
@pytest.mark.parametrize("tm,tn", [(7, 5), (1, 6), (6, 1), (5, 11)])
def test_launch_grid_orders(kind, name, key, p, tm, tn):
    ctas = (tm << p) * -(-tn // (1 << p)) if name == "cutlass" else -(-tn // p) * tm * p
    out = torch.full((ctas * 2,), -1, dtype=torch.int32, device=DEVICE)
    _emit[(ctas,)](out, tm, tn, KIND=kind, P=p)
    got = out.cpu().numpy().reshape(-1, 2)
    got = got[got[:, 1] < tn]                              # programs past the grid exit
    assert got.tolist() == order(name, tm, tn, **{key: p}).tolist()


@pytest.mark.parametrize("kind,name", [(10, "morton"), (11, "hilbert")])
@pytest.mark.parametrize("log2", [0, 1, 2, 3])
def test_power_of_two_curves(kind, name, log2):
    side = 1 << log2
    out = torch.full((side * side * 2,), -1, dtype=torch.int32, device=DEVICE)
    _emit[(side * side,)](out, side, side, KIND=kind, P=log2)
    assert out.cpu().numpy().reshape(-1, 2).tolist() == order(name, side, side).tolist()
