"""GPU tier: every CUDA rung against float64 on ragged and square shapes, NaN-poisoned."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from swizzlekit.kernels.cuda.ladder import RUNGS, rung, run  # noqa: E402


@pytest.mark.parametrize("name", [r.name for r in RUNGS])
@pytest.mark.parametrize("m,n,k", [(512, 512, 512), (1000, 1100, 300), (129, 257, 65),
                                   (2048, 2048, 2048)])
def test_rung(name, m, n, k):
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    a, b = random_operands(m, n, k, torch.float32, "cuda")
    c = poisoned(m, n, torch.float32, "cuda")
    run(name, a, b, out=c)
    torch.cuda.synchronize()
    err = relative_error(c, a, b)
    assert err == err and err < rung(name).tolerance, (name, err)
