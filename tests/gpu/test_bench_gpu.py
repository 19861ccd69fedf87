"""GPU tier: ``lab.bench.time_group`` on ragged and aligned shapes, bf16 and fp8: every row
checked against float64 and positive, and the triton rows' ``plan`` naming how the call ran
(``matmul.describe``, ``scaled.scaled_describe``), cuBLAS's empty."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


@pytest.mark.parametrize("shape,precision,words", [
    ((1001, 1001, 1001), "bf16", ["tma", "copies", "S=1"]), ((1024, 1024, 1024), "bf16", ["S=1"]),
    ((1001, 1503, 1431), "fp8", ["tma", "pad", "C-masked", "S=1"]),
    ((2048, 2048, 2048), "fp8", ["S=1"])])
def test_bench_rows_name_the_plan_that_ran(shape, precision, words):
    from swizzlekit.lab.bench import Run, time_group

    runs = [Run("test", shape, precision, "cublas"),
            Run("test", shape, precision, "triton", "auto")]
    rows = time_group(runs, warm=False, base_tflops=None)
    assert [r["kernel"] for r in rows] == ["cublas", "triton"]
    assert all(r["ok"] and r["ms"] > 0 and r["tflops"] > 0 for r in rows)
    assert rows[0]["plan"] == ""
    plan = rows[1]["plan"].split()
    assert plan and all(w in plan for w in words), rows[1]["plan"]
    assert plan[0] in ("tma", "pointer") and "/s" in plan[1] and "/w" in plan[1]
