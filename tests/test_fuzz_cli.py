"""Every command answers bad input at the door: one line on stderr, the documented exit code,
never a traceback, a hang, a negative or a NaN figure.

Two halves: the fixed list of nasty cases that a new user's session found (each with the exit
code it must give), and hypothesis over each command's argument grammar, mixing valid and
broken tokens. Calls run in-process through ``main`` (and a few as real processes), each timed.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swizzlekit.cli import main
from swizzlekit.errors import MESSAGE_LIMIT

#: Seconds any one call may take (the limits the commands name keep them well inside it).
BOUND_S = 20.0


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    """Commands with a default output folder (bench-out, reproduce-out) create it in the
    working folder: keep that out of the repository."""
    monkeypatch.chdir(tmp_path)


def call(args: list[str]) -> tuple[int, str, str, float]:
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - start


def assert_answered(args, code, out, err, seconds, expected=None):
    assert seconds < BOUND_S, f"{args} took {seconds:.1f} s"
    assert "Traceback" not in out + err, f"{args} printed a traceback"
    assert code in (0, 1, 2), f"{args} exited {code}"
    if expected is not None:
        assert code == expected, f"{args}: exit {code}, want {expected}: {err}"
    if code:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("swizzlekit: error: "), (args, err)
        assert len(lines[0]) <= MESSAGE_LIMIT, f"{args}: a {len(lines[0])}-character message"
        assert "internal error" not in err, f"{args} hit a bug: {err}"
    else:
        assert "nan" not in out.lower().replace("nanos", ""), (args, out)


def _numbers(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _numbers(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _numbers(v)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        yield obj


SOLVE = ["smem", "solve", "--shape", "8x8", "--elem-bytes", "16", "--access", "row"]
SIM = ["cta", "simulate", "--mnk", "1024x1024x1024"]
NASTY = [  # (args, exit code); {tmp} is a fresh folder, {file} an existing file
    (["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row", "--out",
      "/proc/x.png"], 2),
    (["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row", "--out",
      "/proc/x.png", "--json"], 2),
    (["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row", "--out",
      "{tmp}/x.txt"], 2),
    (["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row", "--out",
      "{tmp}"], 2),
    (["smem", "cases", "--out", "/proc/x"], 2),
    (["smem", "cases", "--out", "{file}"], 2),
    (["cta", "show", "--grid", "8x8", "--order", "row", "--out", "/proc/x.png"], 2),
    (SIM + ["--order", "row", "--dispatch", "lockstep"], 2),
    (SIM + ["--order", "all", "--dispatch", "measured", "--gpu", "a100"], 2),
    (["cta", "show", "--grid", "100000x100000", "--order", "row", "--out", "{tmp}/o.png"], 2),
    (["report", "--out", "/proc/x", "--json"], 2),
    (["report", "--out", "{file}"], 2),
    (["report", "--gpu", "b300"], 2),
    (["smem", "solve", "--shape", "4096x4096", "--elem-bytes", "2", "--access", "row",
      "--access", "col"], 2),
    (["cta", "simulate", "--mnk", "100000x100000x100000", "--order", "row"], 2),
    (["cta", "simulate", "--mnk", "100000x100000x100000", "--order", "all"], 2),
    (["cta", "simulate", "--mnk", "1000000x1000000x1024", "--order", "row"], 2),
    (SIM + ["--order", "row", "--elem-bytes", "0"], 2),
    (SIM + ["--order", "row", "--elem-bytes", "-2"], 2),
    (SIM + ["--order", "row", "--concurrent", "0"], 2),
    (SIM + ["--order", "all", "--param", "group=8"], 2),
    (SIM + ["--order", "grouped", "--param", "group=abc"], 2),
    (SIM + ["--order", "row", "--tile", "0x128x64"], 2),
    (SIM + ["--order", "row", "--gpu", "b300"], 2),
    (["bench", "--order", "bogus"], 2),
    (["bench", "--order", "grouped:group=abc"], 2),
    (["bench", "--kernel", "cuda_naive", "--precision", "bf16"], 2),
    (["bench", "--suite", "nope"], 2),
    (["bench", "--mnk", "3000x5000"], 2),
    (["bench", "--mnk", "3000x5000x0"], 2),
    (["bench", "--mnk", "40000x40000x40000"], 2),          # above BENCH_MAX_MNK
    (["bench", "--out", "{file}"], 2),
    (["bench", "--cluster", "bogus"], 2),
    pytest.param(["bench", "--cluster", "tcp://127.0.0.1:1"], 2,   # nothing listens there:
                 marks=pytest.mark.slow),                       # 10 s of Dask's timeout
    (["lab", "l2-sweep", "--out", "{tmp}", "--cluster", "tcp://host"], 2),
    (["lab", "order-times", "--out", "{tmp}", "--replicates", "0"], 2),
    (["lab", "order-times", "--out", "{tmp}", "--replicates", "101"], 2),
    (["lab", "order-times", "--out", "{tmp}", "--replicates", "five"], 2),
    (["lab", "peak", "--out", "{tmp}", "--cluster", "local"], 2),   # not a sweep
    (["reproduce", "seed001", "--cluster", "8786"], 2),
    (["kernels", "build", "--arch", "sm_99"], 2),
    (["kernels", "ptx", "cuda_nope"], 2),
    (["reproduce", "seed003"], 2),
    (["lab", "nope", "--out", "{tmp}"], 2),
    (["lab", "banks", "--out", "{file}"], 2),
    (["smem", "wavefronts", "--width", "12", "0"], 2),
    (["smem", "wavefronts", "zz"], 2),
    (["smem", "check", "--shape", "8x8", "--elem-bytes", "16", "--access", "row", "--layout",
      "swizzle:9,9,9"], 2),
    (SOLVE[:-1] + ["block:0x4"], 2),
    (SOLVE[:-1] + [",".join(["row"] * 20000)], 2),             # a long value, elided
    (["smem", "show", "--shape", "8x8", "--elem-bytes", "16", "--access", "row", "--out",
      "{tmp}/" + "a" * 300 + ".png"], 2),                       # a name the OS refuses
    (["kernels", "configs", "--mnk", "99999999x99999999x99999999"], 2),   # past any GPU
    (["kernels", "configs", "--mnk", "512x4096x4096", "--precision", "int8"], 2),
    (["kernels", "configs", "--mnk", "512x4096x4096", "--kernel", "cuda"], 2),
    (SIM + ["--order", "row", "--kernel", "table_gemm:128x128x64:fp16", "--tile",
            "64x64x64"], 2),                                    # --kernel sets the tile
    (SIM + ["--order", "row", "--kernel", "table_gemm:128x128x64:fp16", "--elem-bytes",
            "4"], 2),
    (SIM + ["--order", "row", "--programs", "64"], 2),          # --programs needs --persistent
    ([], 2),
    (["nope"], 2),
]


@pytest.mark.parametrize("args, code", NASTY,
                         ids=[" ".join(getattr(c, "values", c)[0][:4]) for c in NASTY])
def test_nasty_cases(args, code, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    args = [a.format(tmp=tmp_path, file=afile) for a in args]
    assert_answered(args, *call(args), expected=code)


def test_a_bad_autotune_mode_is_named(monkeypatch):
    from swizzlekit.kernels.triton import configs

    monkeypatch.setenv("SWIZZLEKIT_AUTOTUNE", "garbage")
    monkeypatch.setattr(configs, "_MODE", None)
    args = ["kernels", "configs", "--mnk", "512x4096x4096"]
    code, out, err, seconds = call(args)
    assert_answered(args, code, out, err, seconds, expected=2)
    assert "SWIZZLEKIT_AUTOTUNE" in err


def test_cta_simulate_says_which_tile_it_used():
    args = SIM + ["--order", "row", "--kernel", "table_gemm:128x128x64:fp16", "--json"]
    code, out, err, _ = call(args)
    assert code == 0 and json.loads(out)["tile"] == [128, 128, 64], err
    code, out, _, _ = call(SIM + ["--order", "row", "--tile", "64x128x32"])
    assert code == 0 and "64x128x32 tiles" in out


@pytest.mark.parametrize("args, code", [
    (["bench"], 1),                                      # needs a GPU: a machine failure
    (["report", "--measure", "--out", "{tmp}"], 1),
    (["lab", "peak", "--out", "{tmp}"], 1),
    (["lab", "order-times", "--out", "{tmp}", "--replicates", "9"], 1),
    (["reproduce", "seed001", "--out", "{tmp}"], 1),
    (["lab", "banks", "--out", "{tmp}", "--cluster", "local"], 1),  # no GPU for a worker
])
def test_machine_failures_without_a_gpu(args, code, tmp_path):
    from swizzlekit.lab.harness import has_cuda_gpu

    if has_cuda_gpu():
        pytest.skip("this machine has a GPU")
    args = [a.format(tmp=tmp_path) for a in args]
    assert_answered(args, *call(args), expected=code)


def test_real_processes_print_one_line():
    for args, code in [(["cta", "simulate", "--mnk", "100000x100000x100000", "--order", "all"], 2),
                       (["kernels", "sass", "cuda_naive"], None)]:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "swizzlekit.cli", *args],
                              capture_output=True, text=True, timeout=120)
        assert_answered(args, done.returncode, done.stdout, done.stderr,
                        time.perf_counter() - start, code)


# ------------------------------------------------------------------------ the grammar, fuzzed
INT = st.one_of(st.sampled_from(["0", "-1", "1", "2", "3", "4", "8", "12", "16", "33", "64",
                                 "128", "1e3", "abc", "", "99999999999"]),
                st.integers(-5, 5000).map(str))
DIMS2 = st.one_of(st.builds(lambda a, b: f"{a}x{b}", INT, INT), st.sampled_from(
    ["8x8", "8x9", "24x4", "128x128", "256x256", "8", "8x8x8", "x", "-8x8", "0x0"]))
DIMS3 = st.one_of(st.builds(lambda a, b, c: f"{a}x{b}x{c}", INT, INT, INT), st.sampled_from(
    ["1024x1024x1024", "16384x16384x2048", "1x1x1", "100000x100000x100000", "9x9x9"]))
ACCESS = st.sampled_from(["row", "col", "block:2x4", "block:4x2", "block:4x8:vec=2",
                          "block:2x4:stride=2x1", "block:0x4", "blk", "block:3x3", "row:vec=4",
                          "col:vec=3", ""])
ORDER = st.sampled_from(["row", "col", "grouped", "strip", "snake", "morton", "hilbert",
                         "cutlass", "zlayer", "strip_snake", "grouped_persistent", "all",
                         "zig", ""])
PARAM = st.sampled_from(["group=8", "group=0", "group=-1", "group=x", "width=4", "width=0",
                         "layers=2", "log_tile=0", "raster=n", "raster=q", "along=m", "=3",
                         "group", "k=v"])
LAYOUT = st.sampled_from(["row-major", "pad:1", "pad:-1", "swizzle:3,0,3", "swizzle:3,4,3",
                          "swizzle:9,9,9", "xor:3,0,2", "triton:8,1,8", "tma:128", "tma:7",
                          "linear:1,2", "nonsense", "xor-cols:3"])


def _opt(flag, strategy):
    return st.one_of(st.just([]), strategy.map(lambda v: [flag, v]))


SMEM = st.builds(lambda verb, shape, eb, accs, layout, js: [
    "smem", verb, "--shape", shape, "--elem-bytes", eb,
    *[x for a in accs for x in ("--access", a)], *layout, *js],
    st.sampled_from(["solve", "check"]), DIMS2, INT, st.lists(ACCESS, max_size=3),
    _opt("--layout", LAYOUT), st.sampled_from([[], ["--json"]]))
CTA = st.builds(lambda mnk, o, params, tile, eb, conc, gpu: [
    "cta", "simulate", "--mnk", mnk, "--order", o, *[x for p in params for x in ("--param", p)],
    *tile, *eb, *conc, *gpu, "--json"],
    DIMS3, ORDER, st.lists(PARAM, max_size=2), _opt("--tile", DIMS3), _opt("--elem-bytes", INT),
    _opt("--concurrent", INT), _opt("--gpu", st.sampled_from(["h200", "a100", "b300", "H200"])))
WAVE = st.builds(lambda addrs, width, op: ["smem", "wavefronts", *addrs, "--width", width,
                                           "--op", op],
                 st.lists(st.one_of(INT, st.just("-")), min_size=1, max_size=34), INT,
                 st.sampled_from(["ld", "st", "ldmatrix", "stmatrix", "xx"]))
KERNELS = st.builds(lambda verb, name, arch: ["kernels", verb, *name, "--arch", arch],
                    st.sampled_from(["build", "ptx"]), st.sampled_from([[], ["cuda_naive"],
                                                                        ["nope"]]),
                    st.sampled_from(["sm_90", "sm_99", "sm90", "", "sm_80"]))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(SMEM, CTA, WAVE))
def test_fuzzed_arguments_are_answered(args):
    code, out, err, seconds = call(args)
    assert_answered(args, code, out, err, seconds)
    if code == 0 and "--json" in args and args[0] == "cta":
        figures = list(_numbers(json.loads(out)))
        assert all(math.isfinite(x) and x >= 0 for x in figures), (args, out)
CONFIGS = st.builds(lambda mnk, prec, kernel, persistent: [
    "kernels", "configs", "--mnk", mnk, *prec, *kernel, *persistent, "--json"],
    DIMS3, _opt("--precision", st.sampled_from(["bf16", "fp16", "tf32", "fp32", "fp8", "int8"])),
    _opt("--kernel", st.sampled_from(["auto", "tma", "pointer", "cuda"])),
    st.sampled_from([[], ["--persistent"]]))


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(KERNELS)
def test_fuzzed_kernel_commands_are_answered(args):
    assert_answered(args, *call(args))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(CONFIGS)
def test_fuzzed_config_rankings_are_answered(args):
    code, out, err, seconds = call(args)
    assert_answered(args, code, out, err, seconds)
    if code == 0:
        figures = list(_numbers(json.loads(out)))
        assert all(math.isfinite(x) and x >= 0 for x in figures), (args, out)
