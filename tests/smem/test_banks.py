"""The bank model against every instruction measured with Nsight Compute on the H200."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA
from swizzlekit.errors import SwizzleKitError
from swizzlekit.lab.experiments.banks import read_table
from swizzlekit.smem.banks import bank_conflicts, phases, set_wavefronts, wavefronts

TABLE = read_table(DATA / "smem_wavefronts_h200.csv")


def _instruction(row):
    op, addrs = row["op"], row["addresses"]
    if "matrix" in op:
        base, count = op.split(".x")
        return addrs[: 8 * int(count)], base
    return addrs, op


def test_table_is_large_and_covers_every_kind():
    assert len(TABLE) >= 300
    kinds = {(r["op"], r["width"]) for r in TABLE}
    for op in ("ld", "st"):
        for width in (4, 8, 16):
            assert (op, width) in kinds
    assert all(r["instructions"] == (0 if all(a is None for a in r["addresses"]) else 1)
               for r in TABLE), "each launch must hold exactly one shared instruction"


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"{r['id']}-{r['op']}{r['width']}-{r['name']}")
def test_model_matches_ncu(row):
    addrs, op = _instruction(row)
    assert wavefronts(addrs, row["width"], op) == row["wavefronts"]
    assert bank_conflicts(addrs, row["width"], op) == row["bank_conflicts"]


def _naive_phase_cost(byte_addrs, width):
    """Oracle: list every 4-byte word touched, bucket by bank, count distinct per bucket."""
    buckets = {}
    for a in byte_addrs:
        for k in range(max(1, width // 4)):
            word = a // 4 + k
            buckets.setdefault(word % 32, set()).add(word)
    return max((len(v) for v in buckets.values()), default=0)


lane = st.one_of(st.none(), st.integers(0, 1023))


@settings(max_examples=300, deadline=None)
@given(st.lists(lane, min_size=1, max_size=32), st.sampled_from([4, 8, 16]),
       st.sampled_from(["ld", "st"]))
def test_model_is_sum_of_naive_phase_costs(raw, width, op):
    addrs = [None if a is None else a * width for a in raw]
    groups = phases(addrs, width, op)
    assert sorted(i for g in groups for i in g) == list(range(32))
    expect = sum(_naive_phase_cost([addrs[i] for i in g if i < len(addrs) and addrs[i] is not None],
                                   width) for g in groups)
    assert wavefronts(addrs, width, op) == expect
    assert 0 <= bank_conflicts(addrs, width, op) < max(expect, 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4095), min_size=1, max_size=32), st.sampled_from([4, 8, 16]))
def test_stores_never_cost_less_than_loads(raw, width):
    addrs = [a * width for a in raw]
    assert wavefronts(addrs, width, "st") >= wavefronts(addrs, width, "ld")


def test_set_wavefronts_counts_words_not_lanes():
    assert set_wavefronts([0, 0, 0]) == 1
    assert set_wavefronts([0, 128, 256]) == 3
    assert set_wavefronts([0, 2], width=2) == 1


@pytest.mark.parametrize("call, message", [
    (lambda: wavefronts([0] * 32, width=12), "access width 12"),
    (lambda: wavefronts([4], width=16), "not aligned"),
    (lambda: wavefronts([0] * 33), "32 lanes"),
    (lambda: wavefronts([0], op="lds"), "op 'lds'"),
    (lambda: wavefronts([-4]), "negative"),
    (lambda: wavefronts([0] * 8, width=4, op="ldmatrix"), "width=16"),
    (lambda: wavefronts([0] * 12, width=16, op="ldmatrix"), "8, 16 or 32"),
])
def test_bad_input_names_the_problem(call, message):
    with pytest.raises(SwizzleKitError, match=message):
        call()


def _variant(addrs, width, xors=(1, 2), per_half=False):
    """Load wavefronts and conflicts under an alternative merge rule, for the docs' claims."""
    from swizzlekit.smem.banks import _pairs_agree

    addrs = list(addrs) + [None] * (32 - len(addrs))
    size = 32 * 4 // width
    groups = [list(range(p, p + size)) for p in range(0, 32, size)]
    if width == 8 and any(_pairs_agree(addrs, range(32), x) for x in xors):
        groups = [list(range(32))]
    if width == 16:
        groups = []
        for h in (0, 16):
            scope = range(h, h + 16) if per_half else range(32)
            if any(_pairs_agree(addrs, scope, x) for x in xors):
                groups.append(list(range(h, h + 16)))
            else:
                groups += [list(range(h, h + 8)), list(range(h + 8, h + 16))]
    wf = conf = 0
    for g in groups:
        act = [addrs[i] for i in g if addrs[i] is not None]
        w = _naive_phase_cost(act, width)
        words = {a // 4 + k for a in act for k in range(width // 4)}
        wf, conf = wf + w, conf + w - -(-len(words) // 32)
    return wf, conf


def test_the_rules_the_measurements_rejected():
    """docs/smem.md: an i^1-only merge misses 8-byte loads whose lanes i, i^2 share; a
    per-half-warp condition fits every wavefront count but not ncu's conflict counts."""
    loads = [r for r in TABLE if r["op"] == "ld"]
    xor1_only = [r["name"] for r in loads if r["width"] == 8 and
                 _variant(r["addresses"], 8, xors=(1,))[0] != r["wavefronts"]]
    assert xor1_only and all(n.startswith("probe_xor2_random") for n in xor1_only)
    half = [r for r in loads if r["width"] == 16]
    assert all(_variant(r["addresses"], 16, per_half=True)[0] == r["wavefronts"] for r in half)
    wrong = [r["name"] for r in half
             if _variant(r["addresses"], 16, per_half=True)[1] != r["bank_conflicts"]]
    assert len(wrong) == 6 and "probe_share_xor1_half0_only" in wrong
    assert all(_variant(r["addresses"], r["width"]) == (r["wavefronts"], r["bank_conflicts"])
               for r in loads if r["width"] in (8, 16))
