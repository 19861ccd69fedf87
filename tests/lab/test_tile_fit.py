"""The config model's fit (swizzlekit.lab.tile_fit): reproducible from the committed table,
with the figures docs/benchmarks.md quotes."""

import json

import pytest

from swizzlekit.kernels.triton import choose
from swizzlekit.lab import tile_fit


def test_fit_reproduces_the_committed_parameters():
    params, saved = tile_fit.fit(), choose.fitted()
    for name in ("latency", "l2_bandwidth", "narrow_rate", "launch", "top_k",
                 "default_efficiency", "efficiency"):
        assert params[name] == saved[name], name


@pytest.mark.parametrize("split", ["fit", "heldout", "fresh"])
def test_judged_figures_are_the_committed_ones(split):
    assert tile_fit.judge(choose.fitted(), split) == choose.fitted()["judged"][split]


def test_the_model_saves_timing_on_held_out_problems():
    """The point of the model: the autotuner times top_k of about 10 configs and, on held-out
    problems, almost always finds the fastest (these bounds are the docs' figures, rounded
    out; a refit that does worse fails here)."""
    k = choose.top_k()
    held = tile_fit.judge(choose.fitted(), "heldout")
    assert k < held["configs"] / 2
    assert held[f"top{k}"]["within_1pct"] >= 0.95 and held[f"top{k}"]["mean_pct"] < 1.0


def test_top_k_is_the_fit_halfs_rule():
    fit = tile_fit.judge(choose.fitted(), "fit")
    k = choose.top_k()
    assert fit[f"top{k}"]["within_1pct"] >= 0.95
    assert all(fit[f"top{j}"]["within_1pct"] < 0.95 for j in range(1, k))


def test_committed_json_is_what_main_writes(tmp_path, monkeypatch, capsys):
    """``--fit`` writes the parameters with the three splits' figures."""
    committed = json.loads(choose.FITTED_PATH.read_text())
    monkeypatch.setattr(choose, "FITTED_PATH", tmp_path / "m.json")
    try:
        assert tile_fit.main(["--fit"]) == 0
    finally:
        choose.fitted.cache_clear()
    assert json.loads((tmp_path / "m.json").read_text()) == committed
    out = capsys.readouterr().out
    assert "heldout" in out and "fresh" in out
