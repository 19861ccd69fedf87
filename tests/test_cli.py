"""The swizzlekit command: JSON keys, readable output, one-line errors with exit code 2."""

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swizzlekit.cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "swizzlekit.cli", *args],
                          capture_output=True, text=True, timeout=120)


def test_solve_json(capsys):
    assert main(["smem", "solve", "--shape", "8x8", "--elem-bytes", "16",
                 "--access", "row", "--access", "col", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cute"] == "Swizzle<3,0,3>" and out["conflict_free"] is True
    assert out["offsets"][1][0] == 9 and out["tma_mode"] == "SWIZZLE_128B"


def test_solve_json_for_a_form_cute_rejects(capsys):
    main(["smem", "solve", "--shape", "8x4", "--elem-bytes", "16", "--access", "col",
          "--access", "block:4x2", "--access", "block:2x4", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["cute"] is None and out["cute_forbidden"] == "Swizzle<3,0,2>"


def test_solve_readable(capsys):
    main(["smem", "solve", "--shape", "8x24", "--elem-bytes", "16", "--access", "row",
          "--access", "col"])
    text = capsys.readouterr().out
    assert "r*24 + (c ^ (r & 7))" in text and "__device__" in text and "Triton:" in text


def test_check_and_wavefronts(capsys):
    assert main(["smem", "check", "--shape", "8x8", "--elem-bytes", "16", "--layout",
                 "xor:3,0,2", "--access", "col", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["accesses"][0]["worst"] >= 1
    assert main(["smem", "wavefronts", "--width", "16", "--json"]
                + [str(16 * i) for i in range(32)]) == 0
    assert json.loads(capsys.readouterr().out)["wavefronts"] == 4


def test_show_writes_a_png(tmp_path, capsys):
    out = tmp_path / "map.png"
    assert main(["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "col",
                 "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_draws_the_access_that_conflicts_most(capsys, tmp_path):
    out = tmp_path / "m.png"
    assert main(["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row",
                 "--access", "col", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["access"] == "col"     # row is conflict-free
    assert main(["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row",
                 "--access", "col", "--draw", "row", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["access"] == "row"     # the one asked for
    assert main(["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row",
                 "--draw", "col", "--out", str(out)]) == 2                # not among --access
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--draw" in err[0] and "row" in err[0]


def test_cases_json(capsys, tmp_path):
    assert main(["smem", "cases", "--json", "--out", str(tmp_path)]) == 0
    cases = json.loads(capsys.readouterr().out)["cases"]
    assert all(c["conflict_free"] for c in cases) and len(cases) >= 12
    assert all((tmp_path / c["png"].split("/")[-1]).exists() for c in cases)


@pytest.mark.parametrize("args, message", [
    (["smem", "solve", "--shape", "8x8", "--elem-bytes", "12", "--access", "row"], "element size 12"),
    (["smem", "solve", "--shape", "8x8", "--elem-bytes", "16", "--access", "diag"], "unknown access spec"),
    (["smem", "solve", "--shape", "8by8", "--elem-bytes", "16", "--access", "row"], "RxC"),
    (["smem", "check", "--shape", "8x8", "--elem-bytes", "16", "--access", "col",
      "--layout", "swizzle:3,0,2"], "abs(SShift) must be more than BBits"),
    (["smem", "wavefronts", "--width", "16", "4"], "not aligned"),
    (["smem", "wavefronts", "--width", "4"] + ["0"] * 33, "32 lanes"),
    (["smem", "solve", "--shape", "8x8", "--elem-bytes", "16", "--access", "col"], None),
    (["smem", "frobnicate"], "invalid choice"),
    (["cta", "simulate", "--mnk", "1024x1024x1024", "--order", "row", "--programs", "264"],
     "persistent=True (--persistent)"),
    (["cta", "simulate", "--mnk", "1024x1024x1024", "--order", "row", "--persistent",
      "--programs", "0"], "positive integer"),
    (["cta", "simulate", "--mnk", "1024x1024x1024", "--order", "row", "--row-bytes", "2048"],
     "RxC"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    done = run(*args)
    if message is None:                 # col on 8 rows of 16-byte elements is fine
        assert done.returncode == 0
        return
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert message in lines[0]


def test_cta_show_png_and_seed003_count(tmp_path, capsys):
    out = tmp_path / "order.png"
    assert main(["cta", "show", "--grid", "9x9", "--order", "grouped", "--param", "group=3",
                 "--concurrent", "9", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tile_loads_per_k_step"][0] * 9 == 54          # seed 003: 54 over 9 K steps
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["--order", "zig"], "unknown order 'zig'; valid orders: row"),
    (["--order", "grouped", "--param", "width=3"], "no parameter 'width'"),
    (["--order", "grouped", "--param", "group"], "must be KEY=VALUE"),
    (["--order", "row", "--concurrent", "0"], "must be a positive integer"),
])
def test_cta_show_bad_input(args, message, tmp_path):
    done = run("cta", "show", "--grid", "4x4", "--out", str(tmp_path / "x.png"), *args)
    assert done.returncode == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_cta_simulate_json_keys(capsys):
    assert main(["cta", "simulate", "--mnk", "8192x8192x8192", "--tile", "128x128x64",
                 "--gpu", "h200", "--order", "grouped", "--param", "group=8", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert 0 < out["l2_hit_rate"] < 100 and out["dram_read_bytes"] > 0


def test_cta_simulate_takes_the_row_pitch(capsys):
    """A ragged B (10000-byte rows, off the sector) looks up more and hits more than the same
    operands padded to 10240-byte rows; the DRAM bytes are the same. A --kernel takes its own
    layout: fp8 B is K-major, 4000-byte rows, on the sector."""
    def hit(*extra):
        assert main(["cta", "simulate", "--mnk", "3000x5000x4000", "--order", "row", "--json",
                     *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        return out["l2_hit_rate"], out["dram_read_bytes"], out["lookups"]

    ragged, padded = hit(), hit("--row-bytes", "8192x10240")
    assert ragged[0] > padded[0] and ragged[1] == padded[1] and ragged[2] > padded[2]
    kernel = ["--kernel", "table_gemm:128x128x128:fp8"]
    assert hit(*kernel) == hit(*kernel, "--row-bytes", "4000x4000")
    assert hit(*kernel) != hit(*kernel, "--row-bytes", "4000x5000")


def test_cta_simulate_all_recommends(capsys):
    assert main(["cta", "simulate", "--mnk", "8192x8192x8192", "--order", "all", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["recommended"] == out["ranking"][0]
    assert out["ranking"][0]["dram_read_bytes"] <= out["ranking"][-1]["dram_read_bytes"]
    assert {r["order"] for r in out["ranking"]} >= {"row", "grouped", "hilbert", "strip"}


def test_bench_needs_a_gpu_and_names_bad_choices(tmp_path):
    from swizzlekit.lab.bench import runs

    with pytest.raises(Exception, match="unknown suite 'nope'; valid suites: square"):
        runs(["nope"], ["bf16"], ["triton"])
    with pytest.raises(Exception, match="unknown kernel 'cutlass3'; valid kernels: cublas"):
        runs(["square"], ["bf16"], ["cutlass3"])
    plan = runs(["seed001"], ["bf16", "tf32"], ["triton", "table_gemm"])
    assert plan[0].kernel == "cublas"                      # the baseline runs first
    assert not any(r.kernel == "table_gemm" and r.precision == "tf32" for r in plan)


@given(st.lists(st.tuples(*[st.integers(1, 30000)] * 3), min_size=1, max_size=5),
       st.sampled_from([[], ["seed001"]]))
@settings(max_examples=50, deadline=None)
def test_bench_runs_shapes_of_ones_own(shapes, suites):
    """``bench --mnk``: each shape given, once, under suite "mnk", after the suites' shapes,
    cuBLAS first for each; one above BENCH_MAX_MNK refused, the limit named."""
    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.lab.bench import BENCH_MAX_MNK, MNK_SUITE, SUITES, runs

    if any(m * n * k > BENCH_MAX_MNK for m, n, k in shapes):
        with pytest.raises(SwizzleKitError, match=r"limit of 2\^44 \(BENCH_MAX_MNK\)"):
            runs(suites, ["bf16"], ["triton"], shapes=shapes)
        return
    plan = runs(suites, ["bf16"], ["triton"], shapes=shapes)
    mine = [r for r in plan if r.suite == MNK_SUITE]
    assert [r.shape for r in mine if r.kernel == "cublas"] == list(dict.fromkeys(shapes))
    assert [r.kernel for r in mine] == ["cublas", "triton"] * len(set(shapes))
    assert [r.shape for r in plan if r.suite != MNK_SUITE and r.kernel == "cublas"] == [
        s for suite in suites for s in SUITES[suite]]
    assert plan[:len(plan) - len(mine)] == [r for r in plan if r.suite != MNK_SUITE]


def test_bench_needs_shapes():
    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.lab.bench import runs

    with pytest.raises(SwizzleKitError, match="no shapes to run: name a suite"):
        runs([], ["bf16"], ["triton"])
    for bad in ("3000x5000x4000", [(3000, 5000)], [(3000, 5000, 0)], [(3000.0, 5000, 4000)], 3):
        with pytest.raises(SwizzleKitError):
            runs([], ["bf16"], ["triton"], shapes=bad)


def test_kernels_list_and_reproduce_without_gpu(capsys):
    assert main(["kernels", "list", "--json"]) == 0
    names = {k["name"] for k in json.loads(capsys.readouterr().out)["kernels"]}
    assert {"cublas", "triton", "cuda_sgemmopt", "cuda_bank_free", "cuda_block_swizzle"} <= names
    done = run("reproduce", "seed003")
    assert done.returncode == 2 and "invalid choice" in done.stderr
