"""``swizzlekit report`` without a GPU: the page's sections and numbers against the library,
and the page as headless Chromium renders it."""

import json
import os
import re
import shutil
import subprocess
from html import escape
from pathlib import Path

import pytest

from swizzlekit.cli import main
from swizzlekit.cta.rank import label, rank, verdict
from swizzlekit.report import SECTIONS, build
from swizzlekit.report.collect import KERNEL, SHAPES
from swizzlekit.smem import CASES, GEMM_TILES, solve


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    data = build("h200", out, progress=False)
    return out, data, (out / "report.html").read_text()


def test_files_and_sections(report):
    out, data, html = report
    assert json.loads((out / "report.json").read_text()) == json.loads(json.dumps(data, default=str))
    for s in SECTIONS:
        assert f'<section id="{s}">' in html
    assert "src=\"img/" not in html and html.count("data:image/png;base64,") >= 15  # inlined
    assert not data["meta"]["measured"]


def test_smem_numbers_are_the_solvers(report):
    _, data, html = report
    for entry, c in zip(data["smem"]["gemm_tiles"] + data["smem"]["cases"], GEMM_TILES + CASES):
        sol = solve(c.rows, c.cols, c.elem_bytes, c.accesses)
        assert entry["layout"] == str(sol.layout) and entry["wavefronts_after"] == sol.wavefronts
        assert entry["conflict_free"] == sol.conflict_free
        assert entry["wavefronts_before"] >= entry["wavefronts_after"] >= entry["lower_bound"]
        assert escape(str(sol.layout)) in html


def test_cta_recommendations_are_the_models(report):
    _, data, html = report
    section = html[html.index('<section id="cta">'):html.index('<section id="kernels">')]
    for entry, shape in zip(data["cta"]["shapes"], SHAPES):
        ranked = rank(*shape, ctas_per_sm=KERNEL["ctas_per_sm"])     # the report's kernel
        pick = verdict(ranked)["pick"]
        assert entry["recommended"] == entry["model_pick"] == pick or \
            entry["status"].startswith("contradicted")
        assert f"<code>{entry['recommended']}</code>" in section
        assert f"{ranked[0]['l2_hit_rate']:.1f}" in section
    measured = data["cta"]["measured"]
    assert len(measured["rows"]) == 56 and measured["mean_abs_error"] < 5      # two passes, merged
    assert all(r["passes"] == 2 for r in measured["rows"])


def test_cta_section_quotes_the_cards_own_heldout_l2_figures():
    """On the H100 preset the CTA section judges the L2 model on the H100's own tables (the
    figures HELDOUT_BY_GPU quotes), not on the H200's."""
    from swizzlekit.cta.l2 import HELDOUT_BY_GPU
    from swizzlekit.report.collect import cta_section

    held = cta_section("h100-sxm", None)["heldout"]
    quoted = HELDOUT_BY_GPU["h100-sxm"]["heldout"]
    assert held["runs"] == 242 and held["card"] == "NVIDIA H100 SXM"
    assert {k: held[k] for k in quoted} == quoted and "l2_sweep_h100.csv" in held["source"]
    other = cta_section("a100", None)                  # a preset without measured tables
    assert "heldout" not in other and "measured" not in other


def test_kernels_are_labelled_as_committed_h200_results(report):
    _, data, html = report
    section = html[html.index('<section id="kernels">'):html.index('<section id="seeds">')]
    assert data["kernels"]["source"] == "committed"
    assert section.count("Shipped results, not measured now") == len(data["kernels"]["tables"])
    ladder = next(t for t in data["kernels"]["tables"] if "ladder" in t["file"])
    assert ladder["env"]["gpu"] == "NVIDIA H200" and ladder["env"]["date"] in section
    warptile = [r for r in ladder["rows"] if r["kernel"] == "cuda_warptile" and r["M"] == 8192]
    assert f"{float(warptile[0]['vs_cublas']):.3f}" in section
    assert all(r["ok"] is True for t in data["kernels"]["tables"] for r in t["rows"])
    assert section.count('class="bad">no') == 0         # every committed row shows as correct


def test_seed_tables(report):
    _, data, html = report
    seeds = data["seeds"]
    assert [(r["published"], r["computed"]) for r in seeds["seed003"]["rows"]] == [(90, 90), (54, 54)]
    assert len(seeds["seed001"]["rows"]) == 8 and len(seeds["seed002"]["rows"]) == 4
    assert all(r["conflict_free"] for r in seeds["seed004"]["rows"])
    assert "7625.36" in html and "101.239" in html            # seed 002's published numbers


def test_cli_report_json_and_bad_input(tmp_path, capsys):
    assert main(["report", "--gpu", "b300", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "valid: h200" in err[0]
    (tmp_path / "file").write_text("x")
    assert main(["report", "--out", str(tmp_path / "file"), "--json"]) == 2
    assert "is a file" in capsys.readouterr().err


def test_cli_measure_without_gpu_is_a_machine_failure(tmp_path, capsys, monkeypatch):
    from swizzlekit.lab import harness

    monkeypatch.setattr(harness, "has_cuda_gpu", lambda: False)
    assert main(["report", "--measure", "--out", str(tmp_path / "r")]) == 1
    assert "needs torch with a CUDA GPU" in capsys.readouterr().err


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


PROBE = Path(__file__).parent / "report_probe" / "metrics.js"


def _probe(out, tmp_path, width: int) -> dict:
    """The page in headless Chromium at ``width`` px, every <details> opened, measured by
    report_probe/metrics.js: tables wider than their column, text under 10 px on screen (a
    picture's smallest text scaled by the size it is shown at), the summary's place."""
    page = tmp_path / f"probe_{width}.html"
    page.write_text((out / "report.html").read_text().replace(
        "</body>", PROBE.read_text() + "</body>"))
    dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                          f"--window-size={width},900", "--virtual-time-budget=10000",
                          "--dump-dom", page.as_uri()], capture_output=True, text=True,
                         timeout=180, check=True).stdout
    found = re.search(r'<pre id="metrics">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("SWIZZLEKIT_REQUIRE_CHROMIUM"),
                    reason="needs Debian's chromium (CI installs it)")
@pytest.mark.parametrize("width", [1400, 1920])
def test_page_is_legible_in_headless_chromium(report, tmp_path, width):
    out, data, _ = report
    assert CHROMIUM, "SWIZZLEKIT_REQUIRE_CHROMIUM is set but chromium is not installed"
    m = _probe(out, tmp_path, width)
    assert m["problems"] == []
    assert m["page_width"] <= width                       # nothing runs off the side
    assert m["summary_top"] < 200 and m["summary_bottom"] <= m["vh"]   # the first screen
    assert m["images"] >= 10 and m["tables"] >= 20         # the probe saw the page


def test_no_picture_or_case_twice(report):
    _, data, html = report
    pictures = re.findall(r'src="(data:image/png;base64,[^"]+)"', html)
    assert len(pictures) == len(set(pictures)) >= 10
    shown = [c for c in data["smem"]["gemm_tiles"] + data["smem"]["cases"] if "same_as" not in c]
    problems = [(c["shape"][0], c["shape"][1], c["elem_bytes"], tuple(sorted(c["accesses"])))
                for c in shown]
    assert len(problems) == len(set(problems))
    assert any("same_as" in c for c in data["smem"]["cases"])


def test_summary_answers_from_the_sections(report):
    _, data, html = report
    first = html[html.index('<section id="summary">'):html.index('<section id="smem">')]
    for t in data["smem"]["gemm_tiles"]:
        assert f"{t['wavefronts_before']} → {t['wavefronts_after']}" in first
    for s, row in zip(data["cta"]["shapes"], data["summary"]["orders"]):
        assert row["recommended"] == s["recommended"] and s["recommended"] in first
    full = data["kernels"]["tables"][0]
    assert full["env"]["gpu"] in first and full["commit"] in first
    for k in full["summary"]:
        assert f"{k['geomean']:.3f}" in first
    assert {k["precision"] for k in full["summary"]} == {"bf16", "fp16", "fp8", "tf32"}


def test_kernel_summary_against_a_plain_count_of_the_h100_table():
    """The per-precision figures, the shapes below the tutorial baseline and fp8's figures
    where ``_scaled_mm`` takes the shape as given, against a plain recount of the H100's
    committed full-suite tables."""
    import csv
    import math
    from pathlib import Path

    from swizzlekit.report.summary import kernel_summary

    folder = Path(__file__).parents[1] / "docs/data/bench/full_h100_2026-11-25"
    rows = [r for f in ("full_bf16_fp16.csv", "full_fp8_tf32.csv")
            for r in csv.DictReader(open(folder / f))]
    got = {s["precision"]: s for s in kernel_summary(rows)}
    for prec, s in got.items():
        mine = {(r["M"], r["N"], r["K"]): float(r["vs_cublas"]) for r in rows
                if r["precision"] == prec and r["kernel"] == "triton"}
        base = {(r["M"], r["N"], r["K"]): float(r["vs_cublas"]) for r in rows
                if r["precision"] == prec and r["kernel"] == "triton_baseline"}
        gm = math.exp(sum(map(math.log, mine.values())) / len(mine))
        assert s["shapes"] == len(mine) and s["geomean"] == round(gm, 3)
        assert s["below_baseline"] == (sum(mine[k] < base[k] for k in base) if base else None)
        given = [v for k, v in mine.items() if all(int(d) % 16 == 0 for d in k)]
        if prec == "fp8":
            assert s["as_given"]["shapes"] == len(given) < len(mine)
            assert s["as_given"]["geomean"] == round(
                math.exp(sum(map(math.log, given)) / len(given)), 3)
            assert s["as_given"]["below"] == sum(v < 0.90 for v in given)
        else:
            assert s["as_given"] is None


BAND = 3.5          # the page's noise band in these tests (%)


def _page(pick_ms, best_ms):
    """A one-shape CTA section whose pick is the model's fastest order and whose page timed
    the Triton GEMM under the pick and grouped(8) in the given milliseconds."""
    shape = SHAPES[1]
    top = rank(*shape, ctas_per_sm=KERNEL["ctas_per_sm"])[0]
    pick = label(top["order"], top["params"])
    cta = {"shapes": [{"shape": list(shape), "ranking": [top], "model_pick": pick,
                       "recommended": pick, "status": "model only",
                       "verdict": {"pick_order": top["order"], "pick_params": top["params"],
                                   "noise_band_pct": BAND}}],
           "measured_now": {"rows": []}}
    rows = [{"M": shape[0], "N": shape[1], "K": shape[2], "kernel": "triton", "precision": "bf16",
             "order": o, "params": json.dumps(p), "ms": ms}
            for o, p, ms in ((top["order"], top["params"], pick_ms),
                             ("grouped", {"group": 8}, best_ms))]
    rows.append({**rows[0], "kernel": "cublas", "order": "", "params": "{}", "ms": 0.5 * best_ms})
    return cta, {"rows": rows}, shape, top


@pytest.mark.parametrize("pick_ms, flagged",
                         [(1.05, True), (1.036, True), (1.034, False), (0.95, False)])
def test_a_pick_the_page_times_slower_is_flagged_and_not_recommended(pick_ms, flagged):
    """``--measure`` times the Triton GEMM under the pick and grouped(8): a pick slower there
    by more than the noise band is never the recommendation; within it (or faster) it
    stands, confirmed within noise."""
    from swizzlekit.report.collect import judge_picks

    cta, kernels, _, top = _page(pick_ms, 1.0)
    judge_picks(cta, kernels)
    s = cta["shapes"][0]
    assert s["status"].startswith("contradicted") == flagged
    pick = label(top["order"], top["params"])
    assert s["recommended"] == ("grouped group=8 along=m" if flagged else pick)
    assert s["timing"]["status"] == ("contradicted" if flagged else "confirmed")
    if not flagged:
        assert s["status"].startswith("confirmed within noise by the timing")


def _replicates(cta, shape, times: list):
    cta["order_times"] = {"rows": [
        {"M": shape[0], "N": shape[1], "K": shape[2], "order": o, "params": p, "ms": ms,
         "times": [ms] * 5} for o, p, ms in times]}


def test_replicate_timings_judge_before_single_ones():
    """The order-table GEMM timed in replicates decides before the single Triton timings;
    DRAM bytes measured alone never contradict a pick made by time."""
    from swizzlekit.report.collect import judge_picks

    cta, kernels, shape, top = _page(0.9, 1.0)          # single timings: the pick is faster
    _replicates(cta, shape, [(top["order"], top["params"], 1.10), ("row", {}, 1.0)])
    cta["measured_now"]["rows"] = [
        {"shape": "x".join(map(str, shape)), "order": top["order"], "params": top["params"],
         "measured_dram": 2 * 10**9}]
    judge_picks(cta, kernels)
    s = cta["shapes"][0]
    assert s["status"].startswith("contradicted: timed here in replicates")
    assert s["recommended"] == "row" and s["timing"]["slower_pct"] == 10.0
    cta, kernels, shape, top = _page(1.5, 1.0)          # single timings: the pick is slower
    _replicates(cta, shape, [(top["order"], top["params"], 1.02), ("row", {}, 1.0)])
    judge_picks(cta, kernels)
    assert cta["shapes"][0]["status"].startswith("confirmed within noise: timed here")
    cta, _, _, _ = _page(1.5, 1.0)
    judge_picks(cta, {"rows": []})
    assert cta["shapes"][0]["status"] == "model only" and "timing" not in cta["shapes"][0]


def test_a_swizzle_cute_forbids_is_never_shown_as_a_cute_form():
    from swizzlekit.report.html import _cute

    assert _cute({"cute": None, "cute_forbidden": "Swizzle<3,0,2>"})["text"].startswith("none:")
    assert _cute({"cute": "Swizzle<3,0,3>", "cute_forbidden": None})["text"] == "Swizzle<3,0,3>"
