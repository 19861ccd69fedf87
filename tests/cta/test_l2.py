"""The L2 model: equal to its brute-force oracle, fast, and held to the H200 measurements."""

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.cta import order
from swizzlekit.cta.l2 import FITTED, simulate
from swizzlekit.cta.l2_oracle import simulate_naive
from swizzlekit.compare import compare
from swizzlekit.errors import SwizzleKitError

ORDER_NAMES = ["row", "col", "grouped", "grouped_persistent", "strip", "snake", "morton",
               "hilbert", "cutlass", "zlayer", "strip_snake"]


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 10), st.integers(1, 10), st.integers(1, 8), st.integers(1, 24),
       st.integers(1, 3), st.integers(1, 48), st.sampled_from(ORDER_NAMES),
       st.integers(1, 4), st.booleans(), st.sampled_from([0.0, 0.25, 1.0]),
       st.sampled_from(["coin", "measured"]), st.sampled_from([None, 1, 2, 4]),
       st.sampled_from([0, 1, 4, 8, 16]), st.sampled_from([0.0, 0.05, 0.5]),
       st.sampled_from([None, 1, 5, 300, 1000]),
       st.sampled_from([None, (16, 0), (0, 16), (8, 48), (64, 128), (2, 6)]),
       st.sampled_from([None, 1.0, 2.0, 3.5]), st.sampled_from([None, 1.0, 1.75]),
       st.sampled_from([None, 0.0, 0.3]), st.sampled_from([None, 0.0, 0.5, 1.0]),
       st.sampled_from([None, 0, 4]))
def test_analytic_lru_equals_the_brute_force_oracle(tm, tn, tk, concurrent, parts, tiles, name,
                                                    ctas_per_sm, persistent, coalesce, dispatch,
                                                    out_bytes, ways, inflight, programs, pad,
                                                    unaligned, skewed, spread, mirror,
                                                    mirror_ways):
    o = order(name, tm, tn)
    rows = None if pad is None else (tk * 64 * 2 + pad[0], tn * 128 * 2 + pad[1])
    kw = dict(l2_bytes=tiles * 16384 * parts, concurrent=concurrent, partitions=parts,
              ctas_per_sm=ctas_per_sm, persistent=persistent, coalesce=coalesce,
              dispatch=dispatch, out_bytes=out_bytes, ways=ways, inflight=inflight,
              programs=programs if persistent else None, row_bytes=rows,
              unaligned_lookups=unaligned, skewed_lookups=skewed, duration_spread=spread,
              mirror=mirror, mirror_ways=mirror_ways)
    a = simulate(tm * 128, tn * 128, tk * 64, o, **kw)
    b = simulate_naive(tm * 128, tn * 128, tk * 64, o, **kw)
    assert a.lookups == b.lookups
    mirrored = (FITTED["mirror"] if mirror is None else mirror) > 0
    mirror_lru = (FITTED["mirror_ways"] if mirror_ways is None else mirror_ways) == 0
    if ways == 0 and inflight == 0 and (mirror_lru or not mirrored):
        # whole hits and misses: the same integers, in another order
        assert (a.dram_read_bytes, a.l2_hit_rate, a.per_wave_dram_read_bytes) == \
            (b.dram_read_bytes, b.l2_hit_rate, b.per_wave_dram_read_bytes)
    else:                             # shares of hits: equal up to float rounding
        assert abs(a.l2_hit_rate - b.l2_hit_rate) <= 0.011
        for x, y in zip((a.dram_read_bytes, *a.per_wave_dram_read_bytes),
                        (b.dram_read_bytes, *b.per_wave_dram_read_bytes)):
            assert abs(x - y) <= 1 + 1e-9 * y


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 400), st.integers(1, 300), st.integers(1, 300))
def test_a_persistent_grid_runs_its_programs_in_batches_of_the_resident(slots, programs,
                                                                       resident):
    """run_order is a permutation of the slots; each program walks its own slots in launch
    order; a batch of ``resident`` programs runs all its slots before the next begins, round
    by round; and a grid that fits at once runs in launch order."""
    from swizzlekit.cta.l2 import run_order

    run = run_order(slots, programs, resident)
    assert sorted(run.tolist()) == list(range(slots))
    program, batch = run % programs, (run % programs) // resident
    for p in np.unique(program):
        assert (np.diff(run[program == p]) == programs).all()
    assert (np.diff(batch) >= 0).all()
    rounds = run // programs
    for b in np.unique(batch):
        assert (np.diff(rounds[batch == b]) >= 0).all()
    if programs <= resident:
        assert run.tolist() == list(range(slots))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 400), st.integers(1, 300), st.floats(0.001, 1.0))
def test_a_drifting_persistent_grid_keeps_each_program_in_its_own_order(slots, programs,
                                                                       spread):
    """With a spread of durations, run_order is still a permutation in which each program
    walks its own slots in launch order, starting its tiles in the order of its cumulative
    seeded durations (the definition, recomputed here); the first round starts together."""
    from swizzlekit.cta.schedule import DRIFT_SEED, run_order

    run = run_order(slots, programs, programs, spread)
    assert sorted(run.tolist()) == list(range(slots))
    for p in range(min(programs, slots)):
        assert (np.diff(run[run % programs == p]) == programs).all()
    rounds = -(-slots // programs)
    took = np.maximum(1 + spread * np.random.default_rng(DRIFT_SEED).standard_normal(
        (programs, rounds)), 0.05)
    start = [sum(took[i % programs, :i // programs]) for i in range(slots)]
    assert sorted(range(slots), key=lambda i: (start[i], i)) == run.tolist()
    assert sorted(run[:min(programs, slots)].tolist()) == list(range(min(programs, slots)))


def test_persistent_grids_drift_by_the_measured_spread():
    """A persistent grid of 64x64 tiles, 4 CTAs per SM, drifts by the H200's measured spread
    of CTA durations (5.8%): its waves mix rounds, so it reads more from DRAM than without
    the spread, when it runs as the same order launched one CTA per tile, which does not
    drift."""
    from swizzlekit.cta.l2 import settings as model_settings
    from swizzlekit.gpus import gpu

    assert model_settings("h200", 4)["duration_spread"] == gpu("h200").cta_duration_cv[1]
    assert model_settings("h200", 1)["duration_spread"] == gpu("h200").cta_duration_cv[0]
    o = order("grouped", 128, 64, group=8)
    kw = dict(tile=(64, 64, 64), ctas_per_sm=4)
    tiles = simulate(8192, 4096, 14336, o, **kw)
    drift = simulate(8192, 4096, 14336, o, persistent=True, **kw)
    still = simulate(8192, 4096, 14336, o, persistent=True, duration_spread=0, **kw)
    assert drift.dram_read_bytes > 1.5 * still.dram_read_bytes        # the H200: 2.4x
    # without the spread, the grid runs as the launch of one CTA per tile (but for the
    # programs' own coins, which stay with their SMs)
    assert abs(still.dram_read_bytes / tiles.dram_read_bytes - 1) < 0.01
    with pytest.raises(SwizzleKitError, match="duration_spread must be a number from 0 to 1"):
        simulate(8192, 4096, 14336, o, persistent=True, duration_spread=-0.1, **kw)


def test_programs_take_a_persistent_grid_and_change_its_schedule():
    """``programs`` beyond the resident slots runs the later programs after the first ones:
    the reuse between the two batches' tiles changes, and so does the prediction. It needs
    ``persistent=True`` and a count of at least 1."""
    o = order("row", 48, 48)
    kw = dict(ctas_per_sm=1, persistent=True)
    fits = simulate(48 * 128, 48 * 128, 4096, o, programs=132, **kw)
    assert fits == simulate(48 * 128, 48 * 128, 4096, o, **kw)
    batched = simulate(48 * 128, 48 * 128, 4096, o, programs=264, **kw)
    assert batched.l2_hit_rate != fits.l2_hit_rate
    for bad in (dict(programs=0, persistent=True), dict(programs=132),
                dict(programs=2.5, persistent=True)):
        with pytest.raises(SwizzleKitError, match="programs"):
            simulate(1024, 1024, 1024, order("row", 8, 8), **bad)


def test_waves_in_step_find_their_misses_pending():
    """``inflight``'s duplicates behind a miss count in every wave of a kernel of one CTA per
    SM (its waves keep in step) and only in the first wave with 2 CTAs per SM (in_step)."""
    from swizzlekit.cta.l2 import in_step

    o = order("row", 8, 8)
    kw = dict(l2_bytes=6 * 16384 * 2, concurrent=16, partitions=2, coalesce=0.0, ways=0)

    def hits(ctas_per_sm, inflight):
        return simulate(8 * 128, 8 * 128, 4 * 64, o, ctas_per_sm=ctas_per_sm,
                        inflight=inflight, **kw).l2_hit_rate

    drop_one, drop_two = hits(1, 0.0) - hits(1, 0.5), hits(2, 0.0) - hits(2, 0.5)
    assert drop_one > drop_two > 0
    assert in_step(np.arange(4), 1).all() and in_step(np.arange(4), 3).tolist() == [
        True, False, False, False]


def test_writes_of_c_take_l2_room_and_the_ways_soften_the_cliff():
    """C's tiles, written as CTAs end, push A and B out of L2: a wider C reads more from DRAM
    where the reuse is near the capacity, and nothing changes where it is far from it. With
    ways, the hit share falls smoothly around the capacity instead of at it."""
    import numpy as np

    from swizzlekit.cta.reuse import hit_share

    o = order("grouped", 96, 96, group=8)       # 12288² x 2048 fp8: B (25 MB) near a side's 30
    kw = dict(tile=(128, 128, 128), elem_bytes=1, ctas_per_sm=2)
    for ways in (0, 16):
        dram = [simulate(12288, 12288, 2048, o, out_bytes=c, ways=ways, **kw).dram_read_bytes
                for c in (1, 2, 4)]
        assert dram[0] < dram[1] <= dram[2] and dram[2] > 1.2 * dram[0]
    small = order("grouped", 8, 8, group=8)    # 1024³: everything fits, whatever C's width
    assert simulate(1024, 1024, 1024, small, out_bytes=1).dram_read_bytes == \
        simulate(1024, 1024, 1024, small, out_bytes=4).dram_read_bytes
    d = np.linspace(0, 3, 61)
    for ways in (1, 4, 16, 64):
        share = hit_share(d, 1.0, ways)
        assert np.all(np.diff(share) <= 1e-12) and share[0] == 1.0 and 0 < share[20] < 1
    assert hit_share(d, 1.0, 0).tolist() == (d <= 1.0).astype(float).tolist()
    assert hit_share(np.array([0.5]), 1.0, 64)[0] > hit_share(np.array([0.5]), 1.0, 4)[0]


def test_measured_dispatch_follows_the_h200_sides():
    """dispatch="measured": the first wave takes the H200's SMs in their measured order, so a
    CTA's side is its SM's; with one CTA per SM later waves continue the cycle; with more, and
    on presets without measured sides, the errors name the choices."""
    from swizzlekit.cta.l2 import lanes
    from swizzlekit.gpus import gpu

    g = gpu("h200")
    side = [int(g.l2_side_of_sm[s]) for s in g.dispatch_order]
    one = lanes(3 * 132, 2, dispatch="measured", ctas_per_sm=1)
    assert one.tolist() == side * 3
    two = lanes(3 * 132, 2, dispatch="measured", ctas_per_sm=2)
    assert two[:264].tolist() == side * 2
    assert two[264:].tolist() == lanes(3 * 132, 2)[264:].tolist()       # the coin
    persistent = lanes(1000, 2, programs=264, dispatch="measured", ctas_per_sm=2)
    assert persistent.tolist() == [side[(i % 264) % 132] for i in range(1000)]
    assert lanes(50, 3, dispatch="measured").tolist() == lanes(50, 3).tolist()
    with pytest.raises(SwizzleKitError, match="measured for: h200, h100-sxm"):
        simulate(1024, 1024, 1024, order("row", 8, 8), gpu="a100", dispatch="measured")
    with pytest.raises(SwizzleKitError, match="coin"):
        simulate(1024, 1024, 1024, order("row", 8, 8), dispatch="fifo")


def test_compulsory_traffic_and_bounds():
    m = n = k = 2048
    p = simulate(m, n, k, order("row", 16, 16))
    assert p.dram_read_bytes >= (m * k + k * n) * 2          # every byte read once at least
    assert 0 < p.l2_hit_rate < 100
    tiny = simulate(m, n, k, order("row", 16, 16), l2_bytes=16384 * 2)
    assert tiny.dram_read_bytes > p.dram_read_bytes          # a smaller cache never helps


def test_c_is_counted_at_its_own_width():
    """``out_bytes`` sets C's writes (which ncu counts as hits, and which take L2 room from A
    and B): an fp8 GEMM writing fp16 C writes twice fp8's bytes, reads no less from DRAM, and
    its hit rate rises with the writes."""
    o = order("grouped", 16, 16, group=4)
    fp8 = simulate(2048, 2048, 2048, o, elem_bytes=1)
    wide = simulate(2048, 2048, 2048, o, elem_bytes=1, out_bytes=2)
    assert wide.dram_write_bytes == 2 * fp8.dram_write_bytes == 2048 * 2048 * 2
    assert wide.dram_read_bytes >= fp8.dram_read_bytes
    assert wide.l2_hit_rate > fp8.l2_hit_rate
    assert wide.lookups >= fp8.lookups + 2048 * 2048 // 32        # and fabric lookups of misses
    for bad in (3, True, 2.0, "2"):
        with pytest.raises(SwizzleKitError, match="out_bytes"):
            simulate(2048, 2048, 2048, o, out_bytes=bad)


def test_16384_cubed_is_fast():
    start = time.perf_counter()
    simulate(16384, 16384, 16384, order("grouped", 128, 128, group=8))
    assert time.perf_counter() - start < 10


def test_order_must_match_the_grid():
    with pytest.raises(SwizzleKitError, match="needs"):
        simulate(1024, 1024, 1024, order("row", 4, 4))


@pytest.mark.parametrize("tile", [(1, 99999999999, 99999999999), (4097, 128, 64)])
def test_a_tile_side_past_the_limit_is_refused_with_the_limit_named(tile):
    """A tile side of more than MAX_TILE_SIDE is refused at the door, not carried into byte
    counts that leave 64-bit integers (a fuzzed `cta simulate --tile` found one)."""
    from swizzlekit.cta.l2 import MAX_TILE_SIDE

    grid = (-(-1024 // tile[0]), -(-1024 // tile[1]))
    with pytest.raises(SwizzleKitError, match=f"at most {MAX_TILE_SIDE}"):
        simulate(1024, 1024, 1024, order("row", *grid), tile=tile)


def test_the_longest_tile_side_is_answered():
    """MAX_TILE_SIDE in every side, 8-byte elements: a finite, non-negative prediction."""
    from swizzlekit.cta.l2 import MAX_TILE_SIDE

    p = simulate(1024, 1024, 1024, order("row", 1, 1), tile=(MAX_TILE_SIDE,) * 3, elem_bytes=8)
    assert 0 <= p.l2_hit_rate <= 100 and p.dram_read_bytes >= 0 and p.time_s > 0


@pytest.mark.parametrize("row_bytes,operand", [((1, 2048), "A's"), ((2048, 2047), "B's")])
def test_row_pitches_shorter_than_the_rows_are_refused(row_bytes, operand):
    """A pitch below a row's own bytes (A: K elements; B: N, or K if K-major) would make rows
    overlap: refused with the least pitch named."""
    with pytest.raises(SwizzleKitError, match=f"{operand} rows .* give at least 2048"):
        simulate(1024, 1024, 1024, order("row", 8, 8), row_bytes=row_bytes)


@pytest.mark.parametrize("kw,message", [({"mirror": 1.5}, "mirror must be a number from 0 to 1"),
                                        ({"mirror": "0.6"}, "mirror must be a number"),
                                        ({"mirror_ways": -1}, "mirror_ways"),
                                        ({"mirror_ways": 65}, "mirror_ways")])
def test_bad_mirror_settings_are_refused(kw, message):
    with pytest.raises(SwizzleKitError, match=message):
        simulate(1024, 1024, 1024, order("row", 8, 8), **kw)


def test_the_mirror_off_gives_the_partitions_dram_and_the_same_hit_rate():
    """``mirror=0``: the DRAM bytes of the two partitions; on or off, the hit rate and the
    lookups are the partitions' own, and a larger mirror never reads more."""
    o = order("grouped", 64, 64, group=8)
    off, on = (simulate(8192, 8192, 4096, o, mirror=m) for m in (0.0, None))
    assert (off.l2_hit_rate, off.lookups) == (on.l2_hit_rate, on.lookups)
    assert off.dram_read_bytes != on.dram_read_bytes
    reads = [simulate(8192, 8192, 4096, o, mirror=m, mirror_ways=0).dram_read_bytes
             for m in (0.2, 0.4, 0.8)]
    assert reads == sorted(reads, reverse=True)


def test_model_against_the_first_h200_table():
    """docs/cta.md: the 112 runs of 2026-11-21 (one kernel, 128x128x64 fp16), not used in the
    fit either: mean 2.96 points, worst 17.0."""
    rows = compare()
    err = np.array([abs(r["model_hit"] - r["measured_hit"]) for r in rows])
    ratio = np.array([r["model_dram"] / r["measured_dram"] for r in rows])
    assert len(rows) == 112
    assert err.mean() <= 2.961 and err.max() <= 17.03
    assert ((ratio > 0.75) & (ratio < 1.25)).sum() >= 101


def test_heldout_error_ratchet():
    """docs/cta.md's held-out figures; a change to the model may only lower them. (Session
    20 measured the ragged shapes again with the kernel's alignment hint, and the refit on
    the new fit half chose 8 ways: the DRAM median rose from 5.9% to 6.7% then, with the
    data, not the model. Session 21's extra lookups of rows off the sector took the mean
    from 3.42 to 3.00, and persistent grids' drift to 2.94.)"""
    from swizzlekit.compare import compare_sweep, errors

    from swizzlekit.cta.l2 import HELDOUT

    e = errors(compare_sweep("heldout"))
    assert e["runs"] == 286
    assert e["hit_mean"] <= 2.94 and e["hit_worst"] <= 21.9 and e["dram_median_pct"] <= 6.5
    # the figures the library quotes (rank's verdict, the CLI) are the ones measured here
    assert HELDOUT == {k: e[k] for k in HELDOUT}


def test_fresh_set_figures_are_the_ones_quoted():
    """The fresh set (208 runs in neither half, measured after the fit) errs as docs/cta.md
    says; it is never fitted on, so a change to the model shows here as it is."""
    from swizzlekit.compare import FRESH_TABLE, compare_sweep, errors
    from swizzlekit.cta.l2 import FRESH

    e = errors(compare_sweep(path=FRESH_TABLE))
    assert e["runs"] == 208 and {k: e[k] for k in FRESH} == FRESH
    with pytest.raises(SwizzleKitError, match="fit, heldout, fresh"):
        compare_sweep("test", path=FRESH_TABLE)


def test_h100_figures_are_the_ones_quoted():
    """The H100's tables (the sweep's problems and orders on three H100 cards, no persistent
    grids) err on the H100 preset as HELDOUT_BY_GPU says; the model was fitted on the H200's
    fit half only, so both parts are held out from it."""
    from swizzlekit.compare import CARD_TABLES, compare_sweep, errors
    from swizzlekit.cta.l2 import FRESH, HELDOUT, HELDOUT_BY_DISPATCH, HELDOUT_BY_GPU

    assert HELDOUT_BY_GPU["h200"] == {"heldout": HELDOUT, "fresh": FRESH,
                                      "measured": HELDOUT_BY_DISPATCH["measured"]}
    sweep, fresh = CARD_TABLES["h100-sxm"]
    held = compare_sweep("heldout", sweep, gpu="h100-sxm")
    new = compare_sweep(path=fresh, gpu="h100-sxm")
    measured = compare_sweep("heldout", sweep, gpu="h100-sxm", dispatch="measured")
    assert len(held) == 242 and len(new) == 176
    assert not any(r["persistent"] for r in held + new)
    for part, rows in (("heldout", held), ("fresh", new), ("measured", measured)):
        e, quoted = errors(rows), HELDOUT_BY_GPU["h100-sxm"][part]
        assert {k: e[k] for k in quoted} == quoted
    # the preset reaches the model: the H200's 60 MiB L2 predicts other hit rates
    assert [r["model_hit"] for r in held] != [r["model_hit"] for r in compare_sweep(
        "heldout", sweep)]


def test_compare_command_checks_its_card():
    """``python -m swizzlekit.compare``'s --gpu names a card with tables, and only with
    --heldout."""
    from swizzlekit.compare import main

    with pytest.raises(SwizzleKitError, match="h200, h100-sxm"):
        main(["--heldout", "--gpu", "a100"])
    with pytest.raises(SwizzleKitError, match="--gpu goes with --heldout"):
        main(["--gpu", "h100-sxm"])


def test_measured_dispatch_figures_are_the_ones_quoted():
    """The held-out error that `cta simulate --dispatch measured` quotes is measured here."""
    from swizzlekit.compare import compare_sweep, errors
    from swizzlekit.cta.l2 import HELDOUT, HELDOUT_BY_DISPATCH
    from swizzlekit.cta.rank import rank, verdict

    e = errors(compare_sweep("heldout", dispatch="measured"))
    held = HELDOUT_BY_DISPATCH["measured"]
    assert held == {k: e[k] for k in held} and HELDOUT_BY_DISPATCH["coin"] == HELDOUT
    ranked = rank(4096, 4096, 4096, dispatch="measured")
    assert ranked != rank(4096, 4096, 4096)                  # the option reaches the model
    with pytest.raises(SwizzleKitError, match="h200, h100-sxm"):
        verdict(ranked, "lockstep")


@pytest.mark.slow
def test_fitted_parameters_are_the_best_of_the_grid_on_the_fit_half():
    """FITTED is what compare.fit chose on the fit half (its grid, coarsened here for time, with
    its runner-up: 16 ways errs 2.88 points there and 2.3% in DRAM bytes, against 2.90 and
    1.8%), then its second stage (unaligned_lookups: 2.0 errs 2.98, 3.0 2.96, and 1.0, the
    model without it, 3.76), and its third, on the ragged fit runs (skewed_lookups: 1.25 errs
    2.58, 1.5 2.48, 1.75 2.76; docs/data/l2_checks/fit_grid_drift.txt), and its fourth, the
    mirror (0.6 of the L2 in 16 ways errs 1.3% in DRAM bytes, 0.5 and 0.7 2.8% and 2.3%, 8
    ways 1.9%; docs/data/l2_checks/fit_mirror.txt)."""
    from swizzlekit.compare import (SKEWED_GRID, chosen, fit, fit_mirror, fit_skewed,
                                    fit_unaligned)
    from swizzlekit.cta.l2 import FITTED

    grid = fit(exponents=(0.0,), coalesce=(FITTED["coalesce"], 0.1), ways=(8, 16),
               inflight=(0.05, FITTED["inflight"]))
    best = chosen(grid)
    second = chosen(fit_unaligned(best, values=(1.0, 2.0, FITTED["unaligned_lookups"], 3.0)))
    third = chosen(fit_skewed(SKEWED_GRID))
    fourth = chosen(fit_mirror(grid=((0.5, FITTED["mirror"], 0.7), (8, FITTED["mirror_ways"]))))
    assert {k: {**second, **third, **fourth}[k] for k in FITTED} == FITTED
    assert (second["hit_mean"], second["dram_median_pct"]) == (2.9, 1.8)
    assert third["hit_mean"] == 2.48
    assert (fourth["hit_mean"], fourth["dram_median_pct"]) == (2.9, 1.3)


def test_ragged_check_figures_are_the_ones_quoted():
    """The ragged check runs (never fitted on) err as docs/cta.md says: rows off the sector
    in every way, with 8-byte, 4-byte and element loads."""
    from swizzlekit.compare import compare_ragged, errors
    from swizzlekit.cta.l2 import RAGGED_CHECK

    e = errors(compare_ragged("check"))
    assert e["runs"] == 20 and {k: e[k] for k in RAGGED_CHECK} == RAGGED_CHECK
    assert "pick_within_1pct" not in e                   # untimed: no picks judged
    with pytest.raises(SwizzleKitError, match="fit, check"):
        compare_ragged("heldout")


def test_the_model_ranks_the_measured_order_effects():
    """Where the order changed the measured time most, the model agrees on which is better."""
    for (m, n, k), bad, good in [((16384, 16384, 2048), "row", "hilbert"),
                                 ((8192, 8192, 8192), "row", "grouped"),
                                 ((16384, 2048, 8192), "col", "row"),
                                 ((2048, 16384, 8192), "row", "col")]:
        tm, tn = m // 128, n // 128
        kw = {"group": 8} if good == "grouped" else {}
        a = simulate(m, n, k, order(bad, tm, tn))
        b = simulate(m, n, k, order(good, tm, tn, **kw))
        assert b.dram_read_bytes < a.dram_read_bytes and b.l2_hit_rate > a.l2_hit_rate


def test_seed001_predicted():
    """docs/cta.md: the model beside seed 001's measured kernels, within 10.2 points each (5
    before the ways, 6.7 before coalesce went to 0 and inflight to 0.1, 8.9 with 16 ways
    before the refit of session 20 chose 8: seed 001's row order at 4096³ in 32x32 fp32
    tiles re-reads B from just past the capacity, where the ways give hits that the H200
    does not)."""
    from swizzlekit.compare import compare_seed001

    rows = compare_seed001()
    assert len(rows) == 8
    assert all(abs(r["model_hit"] - r["measured_hit"]) <= 10.2 for r in rows)
    big = [r for r in rows if r["shape"] == "4096x4096x4096"]
    assert all(abs(r["model_dram"] / r["measured_dram"] - 1) < 0.175 for r in big)  # 17.4%


def test_rows_off_the_sector_add_lookups_that_hit():
    """A ragged B (10000-byte rows, every other one half a sector off) costs
    ``unaligned_lookups`` lookups per sector it reads; they hit, so the DRAM bytes stay those
    of the same operands in padded rows (docs/data/l2_checks/pitch.py). An odd K's rows
    (skewed) cost ``skewed_lookups``."""
    from swizzlekit.cta.l2 import FITTED

    o = order("grouped", 24, 40, group=8)
    ragged = simulate(3000, 5000, 4000, o, tile=(128, 128, 64))
    padded = simulate(3000, 5000, 4000, o, tile=(128, 128, 64), row_bytes=(8192, 10240))
    b_sectors = 24 * 40 * 63 * 64 * 128 * 2 // 32                # B's sectors, every CTA
    assert ragged.lookups - padded.lookups == round((FITTED["unaligned_lookups"] - 1) * b_sectors)
    assert ragged.dram_read_bytes == padded.dram_read_bytes
    assert ragged.l2_hit_rate > padded.l2_hit_rate
    hits = lambda p: p.l2_hit_rate * p.lookups / 100                        # noqa: E731
    assert abs(hits(ragged) - hits(padded) - (ragged.lookups - padded.lookups)) < 1e-3 * hits(padded)
    # one lookup a sector is the model without the effect, whatever the pitch
    assert simulate(3000, 5000, 4000, o, tile=(128, 128, 64), unaligned_lookups=1) == padded
    odd = simulate(3000, 5000, 3999, o, tile=(128, 128, 64), row_bytes=(7998, 10240))
    pad = simulate(3000, 5000, 3999, o, tile=(128, 128, 64), row_bytes=(8192, 10240))
    a_sectors = 24 * 40 * 63 * 128 * 64 * 2 // 32
    assert odd.lookups - pad.lookups == round((FITTED["skewed_lookups"] - 1) * a_sectors)


@pytest.mark.parametrize("sector", [32, 64])
def test_row_classes_follow_where_the_rows_start(sector):
    """Exhaustively over pitches: "on" when every row starts on a sector, "half" when the rows
    start at offsets 0 and half a sector, "skewed" otherwise (the definition, by brute force
    over the rows' offsets)."""
    from swizzlekit.cta.l2 import row_classes

    for pitch in range(1, 4 * sector + 1):
        offsets = {r * pitch % sector for r in range(2 * sector)}
        want = ("on" if offsets == {0} else "half" if offsets == {0, sector // 2}
                else "skewed")
        assert row_classes((pitch, sector), 1, 1, 1, sector) == (want, "on")
    assert row_classes(None, 3000, 5000, 1) == ("skewed", "skewed")   # 3000, 5000 bytes
    assert row_classes(None, 1000, 3000, 2) == ("half", "half")       # 2000, 6000 bytes


@pytest.mark.parametrize("bad,match", [
    ({"unaligned_lookups": 0.5}, "unaligned_lookups must be a number from 1 to 8"),
    ({"unaligned_lookups": True}, "unaligned_lookups must be a number"),
    ({"skewed_lookups": 9}, "skewed_lookups must be a number from 1 to 8"),
    ({"row_bytes": (0, 2048)}, r"row_bytes\[0\] must be at least 1"),
    ({"row_bytes": (2048,)}, "row_bytes must be 2 integers")])
def test_row_pitch_and_unaligned_lookups_are_checked_at_the_door(bad, match):
    with pytest.raises(SwizzleKitError, match=match):
        simulate(1024, 1024, 1024, order("row", 8, 8), **bad)


@pytest.mark.parametrize("bad,match", [({"ways": -1}, "ways must be at least 0"),
                                       ({"ways": 65}, "ways must be at most 64"),
                                       ({"ways": 2.0}, "ways must be an integer"),
                                       ({"inflight": 1.5}, "inflight must be a number from 0 to 1"),
                                       ({"inflight": True}, "inflight must be a number")])
def test_ways_and_inflight_are_checked_at_the_door(bad, match):
    with pytest.raises(SwizzleKitError, match=match):
        simulate(1024, 1024, 1024, order("row", 8, 8), **bad)
