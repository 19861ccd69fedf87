"""The dispatch probe's analysis, on the data it produced on the H200 and on the H100
(docs/data/dispatch/h200/, h100/)."""

from pathlib import Path

import numpy as np
import pytest

from swizzlekit.gpus import gpu
from swizzlekit.lab.experiments.dispatch import TRACES, analyze, same_side
from swizzlekit.lab.experiments.l2_sweep import HELDOUT_SHAPES

DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "dispatch"
H200 = DATA / "h200"
#: Each card's probe folder and its preset.
CARDS = {"h200": "h200", "h100": "h100-sxm"}


@pytest.mark.parametrize("folder, preset", CARDS.items())
def test_the_preset_holds_what_the_probe_measured(folder, preset):
    facts = analyze(DATA / folder)
    g = gpu(preset)
    assert facts["l2_side_of_sm"] == g.l2_side_of_sm
    assert facts["dispatch_order"] == g.dispatch_order
    assert sorted(g.dispatch_order) == list(range(g.sms))
    assert g.l2_side_of_sm.count("0") == g.l2_side_of_sm.count("1") == g.sms // 2
    assert facts["near_cycles"] < facts["far_cycles"]
    assert facts["cta_duration_cv"] == g.cta_duration_cv           # the L2 model's drift
    assert g.cta_duration_cv[0] < g.cta_duration_cv[1]             # co-resident CTAs spread


def test_both_cards_are_one_die_to_the_probe():
    """The H100 and the H200 (both GH100) put their SMs on the same L2 sides and fill the
    first wave in the same SM order."""
    h100, h200 = analyze(DATA / "h100"), analyze(H200)
    assert h100["l2_side_of_sm"] == h200["l2_side_of_sm"]
    assert h100["dispatch_order"] == h200["dispatch_order"]


@pytest.mark.parametrize("folder", CARDS)
def test_traces_keep_the_residency_and_the_first_wave_runs_share_a_side(folder):
    for run in analyze(DATA / folder)["runs"]:
        if "persistent" in run["name"]:
            continue              # the traced persistent twin can lose residency (registers)
        assert run["traced_ctas_per_sm"] == run["ctas_per_sm"], run["name"]
        assert run["most_at_once"] <= 132 * run["ctas_per_sm"]
        assert run["same_side_first_wave"][1] > 0.9, run["name"]


def test_no_traced_shape_is_held_out():
    assert not {(t.M, t.N, t.K) for t in TRACES} & set(HELDOUT_SHAPES)


def test_same_side_is_the_share_of_equal_pairs():
    rng = np.random.default_rng(1)
    for _ in range(20):
        s = rng.integers(0, 2, 50)
        got = same_side(s, lags=(1, 3))
        for lag in (1, 3):
            pairs = [s[i] == s[i + lag] for i in range(len(s) - lag)]
            assert got[lag] == round(sum(pairs) / len(pairs), 3)
