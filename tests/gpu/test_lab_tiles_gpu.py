"""GPU tier: ``swizzlekit lab tiles``' one job (the config model's table): whole-K launches
only, every timed config within its float64 bound, one winner per kernel."""

import pytest

pytestmark = [pytest.mark.gpu, pytest.mark.gpu_slow]
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("precision", ["bf16", "fp8"])
def test_measure_times_whole_k_launches(precision):
    """At M <= 512 a call with ``split_k=None`` times S = 1 and 2, and the autotuner's
    timings left behind are split 2's; the table must hold split 1's, so no split is picked."""
    from swizzlekit.kernels.triton import matmul, scaled
    from swizzlekit.lab.experiments.tiles import measure

    for m in (matmul, scaled):
        m.SPLITS.clear()
    rows = measure(256, 1024, 2048, precision, "fit")
    assert len(matmul.SPLITS) == 0 and len(scaled.SPLITS) == 0
    from swizzlekit.kernels.triton.choose import top_k      # every config, not the model's few
    assert len(rows) > top_k() + 2
    assert rows and all(r["ok"] and r["ms"] > 0 for r in rows)
    for kernel in {r["kernel"] for r in rows}:
        assert sum(r["chosen"] for r in rows if r["kernel"] == kernel) == 1
