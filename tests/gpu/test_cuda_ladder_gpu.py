"""GPU tier: every CUDA rung against float64 on ragged and square shapes, NaN-poisoned."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from swizzlekit.kernels.cuda.ladder import RUNGS, rung, run  # noqa: E402


@pytest.mark.parametrize("name", [r.name for r in RUNGS])
@pytest.mark.parametrize("m,n,k", [(512, 512, 512), (1000, 1100, 300), (129, 257, 65),
                                   (2048, 2048, 2048)])
def test_rung(name, m, n, k):
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    c = torch.full((m, n), float("nan"), device="cuda")
    run(name, a, b, out=c)
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    err = float(torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref))
    assert err == err and err < rung(name).tolerance, (name, err)
