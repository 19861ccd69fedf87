"""The L2 sweep's driver, without a GPU: which runs each job holds, and resume. The jobs'
measurements are stood in for by the committed table's own rows, so what is checked is the
splitting and the bookkeeping, and each row must come back exactly as measured."""

from __future__ import annotations

import json

import pytest

from swizzlekit.compare import SWEEP_TABLE
from swizzlekit.lab.experiments import l2_sweep
from swizzlekit.lab.records import L2SweepRow, read_csv

MEASURED = {r.key(): r for r in read_csv(SWEEP_TABLE, L2SweepRow)}
_WHERE = {"gpu", "gpu_uuid"}


def _from_the_table(runs):
    """What measure() returns, read off the committed table (no GPU, no ncu)."""
    return [{k: v for k, v in vars(MEASURED[r.key()]).items() if k not in _WHERE}
            for r in runs]


@pytest.fixture
def fake_measure(monkeypatch):
    """measure() read off the table, and the sweep's provenance left out (it needs a GPU)."""
    from swizzlekit.lab import cluster

    calls = []
    monkeypatch.setattr(cluster, "provenance", lambda client=None: {"gpu": "none"})

    def measure(runs):
        calls.append(runs)
        return _from_the_table(runs)

    monkeypatch.setattr(l2_sweep, "measure", measure)
    return calls


@pytest.mark.parametrize("spec", ["0/4", "3/4", "1/11"])
def test_a_job_is_one_problem_and_every_run_of_the_shard_is_measured_once(tmp_path,
                                                                          fake_measure, spec):
    l2_sweep.run(tmp_path, spec, progress=False)
    runs = l2_sweep.shard(l2_sweep.plan(), spec)
    assert sorted(r.key() for job in fake_measure for r in job) == sorted(r.key() for r in runs)
    for job in fake_measure:
        assert len({(r.shape, r.config, r.dtype) for r in job}) == 1
        assert len(job) == len(l2_sweep.ORDER_SET) + len(l2_sweep.PERSISTENT_SET)
    shapes = {r.shape for r in runs}
    assert len(fake_measure) == 2 * len(shapes)         # two tile configs per shape
    rows = read_csv(tmp_path / "l2_sweep.csv", L2SweepRow)
    assert sorted(r.key() for r in rows) == sorted(r.key() for r in runs)
    assert all(vars(r) | {k: "" for k in _WHERE} == vars(MEASURED[r.key()]) | {k: ""
               for k in _WHERE} for r in rows)
    journal = [json.loads(line) for line in (tmp_path / "jobs.jsonl").read_text().splitlines()]
    assert len(journal) == len(fake_measure) == len({j["key"] for j in journal})


def test_a_second_call_measures_only_what_the_table_lacks(tmp_path, fake_measure):
    l2_sweep.run(tmp_path, "2/4", progress=False)
    first = len(fake_measure)
    table = tmp_path / "l2_sweep.csv"
    lines = table.read_text().splitlines()
    table.write_text("\n".join(lines[:-5]) + "\n")      # the last job lost 5 rows
    l2_sweep.run(tmp_path, "2/4", progress=False)
    assert len(fake_measure) == first + 1 and len(fake_measure[-1]) == 5
    l2_sweep.run(tmp_path, "2/4", progress=False)
    assert len(fake_measure) == first + 1
    rows = read_csv(table, L2SweepRow)
    assert len(rows) == len({r.key() for r in rows}) == len(l2_sweep.shard(l2_sweep.plan(),
                                                                            "2/4"))


def test_the_fresh_set_is_in_neither_half_and_its_table_is_its_plan():
    """The fresh shapes share none with the fit or held-out halves, and the committed fresh
    table holds every run of ``plan("fresh")`` once, as measured (split "fresh")."""
    from swizzlekit.compare import FRESH_TABLE
    from swizzlekit.errors import SwizzleKitError

    fresh = set(l2_sweep.FRESH_SHAPES)
    assert not fresh & (set(l2_sweep.FIT_SHAPES) | set(l2_sweep.HELDOUT_SHAPES))
    rows = read_csv(FRESH_TABLE, L2SweepRow)
    assert sorted(r.key() for r in rows) == sorted(r.key() for r in l2_sweep.plan("fresh"))
    assert {r.split for r in rows} == {"fresh"} and max(r.rel_err for r in rows) < 1e-2
    assert {l2_sweep.split_of(s) for s in fresh} == {"fresh"}
    with pytest.raises(SwizzleKitError, match="sweep, fresh"):
        l2_sweep.plan("heldout")


def test_the_claims_set_is_new_tests_the_rule_both_ways_and_its_table_is_its_plan():
    """The claims set shares no shape with the other sets; among its problems the reuse bound
    lets a claim through at some (4-byte operands whose grids fill the SMs) and refuses it at
    others, on both cards' presets (fewer CTAs than SMs among them); the H100's committed
    table holds every run of ``plan("claims")`` once, split "claims", each checked."""
    from swizzlekit.compare_time import CLAIMS_TABLES
    from swizzlekit.cta.timing import reuse_bound
    from swizzlekit.data import path
    from swizzlekit.lab.records import OrderTimeRow

    shapes = [s for s, _ in l2_sweep.CLAIMS_PROBLEMS]
    assert len(set(shapes)) == len(shapes)
    assert not set(shapes) & set(l2_sweep.FIT_SHAPES + l2_sweep.HELDOUT_SHAPES
                                 + l2_sweep.FRESH_SHAPES)
    assert {l2_sweep.split_of(s) for s in shapes} == {"claims"}
    for gpu in ("h100-sxm", "h200"):
        bounds = [reuse_bound(*s, tuple(int(x) for x in l2_sweep.COMBOS[j][0].split("x")),
                              l2_sweep.ELEM_BYTES[l2_sweep.COMBOS[j][1]],
                              l2_sweep.OUT_BYTES[l2_sweep.COMBOS[j][1]], gpu)
                  for s, combos in l2_sweep.CLAIMS_PROBLEMS for j in combos]
        assert any(b["holds"] for b in bounds) and not all(b["holds"] for b in bounds)
        assert any(b["ctas"] < b["sms"] and b["all_miss_s"] <= b["compute_s"] for b in bounds)
    rows = read_csv(path(CLAIMS_TABLES["h100"]), OrderTimeRow)
    assert sorted(r.key() for r in rows) == sorted(r.key() for r in l2_sweep.plan("claims"))
    assert {r.split for r in rows} == {"claims"} and max(r.rel_err for r in rows) < 1e-2
