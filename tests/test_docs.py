"""The README and docs/ state where things stand: a short README, each page opening with its
current figures, no sentence naming a work step, and the held-out figures they quote equal
to the ones the code keeps."""

import csv
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md"))
TEXTS = [ROOT / "README.md", *PAGES]
#: Words that narrate how the work went rather than where it stands.
WORK_STEPS = re.compile(r"\bsessions?\b|\bthis stop\b|\bwe tried\b|\bused to\b|\bthe former\b",
                        re.I)


def test_readme_is_at_most_200_lines():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_no_sentence_names_a_work_step(path):
    found = [line for line in path.read_text().splitlines() if WORK_STEPS.search(line)]
    assert not found, f"{path.name}: {found[:3]}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_each_page_opens_with_where_it_stands(path):
    text = path.read_text()
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings and headings[0] == "Where it stands", path.name
    first = text.split("## Where it stands", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"2026-\d\d-\d\d", first), "a date"
    assert re.search(r"H100|H200|CPU", first), "the machine"
    assert "commit" in first, "the commit"


def _quoted(value: float) -> str:
    return f"{value:g}" if value != int(value) else f"{value:.1f}"


def test_heldout_figures_are_the_codes():
    """The L2 and time models' held-out figures in the README and docs/cta.md are the
    constants the code keeps (which tests/cta hold to a fresh computation)."""
    from swizzlekit.cta.l2 import FRESH, HELDOUT
    from swizzlekit.cta.timing import TIME_HELDOUT

    readme, cta = (ROOT / "README.md").read_text(), (ROOT / "docs" / "cta.md").read_text()
    for text in (readme, cta):
        assert f"{HELDOUT['hit_mean']} points" in text.replace("**", "")
        assert f"{HELDOUT['dram_median_pct']}%" in text
        for gpu in ("h100-sxm", "h200"):
            held = TIME_HELDOUT[gpu]["heldout"]
            assert f"{held['rel_err_median_pct']}%" in text
            assert f"{round(held['pick_within_2pct'] * 100)}%" in text
    assert f"{FRESH['hit_mean']:.2f} points" in cta
    from swizzlekit.report.collect import _measured_l2

    first = _measured_l2()                                # the report's figure for the table
    assert f"| 112 | {first['mean_abs_error']} | {first['worst_abs_error']} |" in cta
    for gpu in ("h100-sxm", "h200"):
        held = TIME_HELDOUT[gpu]["heldout"]
        assert f"{held['rel_err_worst_pct']}%" in cta and f"{held['regret_worst_pct']}%" in cta


def test_benchmark_figures_are_the_shipped_tables():
    """The README's and docs/benchmarks.md's geomeans are those of the shipped full-suite
    table, as the report computes them."""
    from swizzlekit.data import FOLDER
    from swizzlekit.report.summary import kernel_summary

    with open(FOLDER / "bench" / "full_h200.csv") as f:
        rows = list(csv.DictReader(f))
    readme = (ROOT / "README.md").read_text()
    bench = (ROOT / "docs" / "benchmarks.md").read_text()
    for k in kernel_summary(rows):
        assert f"{k['geomean']:.3f}" in readme and f"{k['geomean']:.3f}" in bench
        assert f"{k['below']} of {k['shapes']}" in bench
