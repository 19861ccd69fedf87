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


@pytest.mark.parametrize("name", [r.name for r in RUNGS])
def test_residency_of_every_rung_matches_the_driver(name):
    """gpus.residency on ptxas's registers and shared memory (what `kernels build` prints)
    equals cuOccupancyMaxActiveBlocksPerMultiprocessor for the loaded kernel."""
    import torch
    from cuda.bindings import driver

    from swizzlekit.gpus import residency
    from swizzlekit.kernels.cuda.launch import function
    from swizzlekit.kernels.cuda.ladder import build, expressions, rung

    r = rung(name)
    major, minor = torch.cuda.get_device_capability()
    compiled = build(f"sm_{major}{minor}", [r])[r.source]
    for expr in expressions(r):
        res = compiled.resources[compiled.lowered[expr]]
        threads = r.block[0] * r.block[1]
        mine = residency("h200", threads, res["registers"], res["smem_bytes"] + r.dynamic_smem)
        err, blocks = driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            function(compiled, expr, r.dynamic_smem), threads, r.dynamic_smem)
        assert int(err) == 0 and mine == blocks, (expr, res, blocks)
