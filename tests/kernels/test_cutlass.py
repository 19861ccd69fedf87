"""CUTLASS's clustered GEMM: its door without a GPU, its nvcc build (slow tier), and the
errors where the build cannot run."""

import ctypes

import pytest

from swizzlekit.errors import SwizzleKitError, ToolError
from swizzlekit.kernels.cuda import cutlass

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("a,b,match", [
    (torch.ones(4), torch.ones(4, 4), "a must be a 2-D torch tensor; got Tensor of 1 dim"),
    ("a", torch.ones(4, 4), "a must be a 2-D torch tensor; got str"),
    (torch.ones(4, 4), torch.ones(4, 4), "a's dtype torch.float32 is not valid; choose one of: "
     "bfloat16, float16"),
    (torch.ones(4, 4, dtype=torch.bfloat16), torch.ones(4, 4, dtype=torch.bfloat16),
     "a must be on a CUDA device; it is on cpu"),
])
def test_door(a, b, match):
    with pytest.raises(SwizzleKitError, match=match):
        cutlass.cutlass_matmul(a, b)


def test_build_names_what_is_missing(monkeypatch, tmp_path):
    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path))
    with pytest.raises(SwizzleKitError, match="dtype 'fp8' is not valid; choose one of: bfloat16"):
        cutlass.build("fp8")
    monkeypatch.setattr(cutlass, "headers", lambda: None)
    with pytest.raises(ToolError, match="CUTLASS's headers are not installed"):
        cutlass.build()
    monkeypatch.setattr(cutlass, "headers", lambda: (tmp_path, "0"))
    monkeypatch.setattr(cutlass, "nvcc", lambda: None)
    with pytest.raises(ToolError, match="nvcc is not on PATH"):
        cutlass.build()
    monkeypatch.setattr(cutlass, "nvcc", lambda: "/bin/false")       # a compiler that fails
    with (pytest.warns(UserWarning, match="building CUTLASS's GEMM for float16 with nvcc"),
          pytest.raises(ToolError,
                        match=r"nvcc could not build CUTLASS's GEMM for float16 \(exit 1\)")):
        cutlass.build("float16")
    assert not list((tmp_path / "cutlass").glob("*.so"))


def test_both_libraries_hash_the_run_sequence_they_share():
    from swizzlekit.kernels.cuda import cutlass_fp8

    shared = (cutlass._SOURCE.parent / "cutlass_run.cuh").read_text()
    assert cutlass.local_headers(cutlass._SOURCE) == [shared]
    assert cutlass.local_headers(cutlass_fp8._SOURCE) == [shared]


def test_a_changed_local_header_rebuilds_and_an_unrelated_one_does_not(monkeypatch, tmp_path):
    """The cache key covers the headers a source includes by quotes from its folder: a change
    to one names a new library; a header it does not include changes nothing."""
    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path / "cache"))
    fake = tmp_path / "nvcc"                 # "compiles" by writing the file after -o
    fake.write_text('#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && echo so > "$2"; '
                    'shift; done\n')
    fake.chmod(0o755)
    monkeypatch.setattr(cutlass, "nvcc", lambda: str(fake))
    monkeypatch.setattr(cutlass, "headers", lambda: (tmp_path, "4.2"))
    src = tmp_path / "lib.cu"
    src.write_text('#include <cuda_runtime.h>\n#include "shared.cuh"\nint x;\n')
    (tmp_path / "shared.cuh").write_text("// one\n")
    (tmp_path / "other.cuh").write_text("// one\n")

    def build():
        with pytest.warns(UserWarning, match="building lib"):
            return cutlass.compile_library(src, ("-O3",), "lib", "lib")

    first = build()
    assert first.exists() and cutlass.compile_library(src, ("-O3",), "lib", "lib") == first
    (tmp_path / "other.cuh").write_text("// two\n")
    assert cutlass.compile_library(src, ("-O3",), "lib", "lib") == first
    (tmp_path / "shared.cuh").write_text("// two\n")
    assert build() != first


@pytest.mark.slow
@pytest.mark.skipif(cutlass.headers() is None or cutlass.nvcc() is None,
                    reason="needs nvcc and the nvidia-cutlass wheel's headers")
def test_build_exports_the_gemm_and_caches_it(monkeypatch, tmp_path):
    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path))
    with pytest.warns(UserWarning, match="building CUTLASS's GEMM for bfloat16"):
        path = cutlass.build("bfloat16")
    lib = ctypes.CDLL(str(path))                     # loads without a GPU
    assert lib.swizzlekit_cutlass_gemm and lib.swizzlekit_cutlass_workspace
    stamp = path.stat().st_mtime_ns
    assert cutlass.build("bfloat16") == path and path.stat().st_mtime_ns == stamp


@pytest.mark.parametrize("mnk,precision,timed", [("3000x5000x4000", "bf16", True),
                                                 ("3000x5000x4000", "fp16", True),
                                                 ("256x14336x4096", "fp8", True),
                                                 ("1024x14336x4096", "fp8", True),
                                                 ("256x4096x4096", "fp8", False),
                                                 ("2048x14336x4096", "fp8", False),
                                                 ("512x14336x4000", "fp8", True),
                                                 ("512x14336x4001", "fp8", False),
                                                 ("3000x5120x4000", "bf16", False),
                                                 ("100x5000x4000", "bf16", False),
                                                 ("3000x5000x4000", "tf32", False)])
def test_configs_say_where_the_first_call_times_it(capsys, mnk, precision, timed):
    import json

    from swizzlekit.cli import main

    assert main(["kernels", "configs", "--mnk", mnk, "--precision", precision, "--gpu",
                 "h100-sxm", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["clustered_timed"] is timed


def test_no_clustered_route_off_the_gpu():
    from swizzlekit.kernels.triton.clustered import clustered_route

    a = torch.ones(4096, 4096, dtype=torch.bfloat16)
    b = torch.ones(4096, 5000, dtype=torch.bfloat16)
    assert not clustered_route(a, b, torch.empty(4096, 5000, dtype=torch.bfloat16), "auto",
                               False, None, None, {})


def test_the_clustered_route_starts_where_copies_do():
    from swizzlekit.kernels.triton.clustered import CLUSTER_MIN_MNK
    from swizzlekit.kernels.triton.copies import COPY_MIN_MNK

    assert CLUSTER_MIN_MNK == COPY_MIN_MNK


def test_a_failed_build_leaves_the_triton_plan():
    from swizzlekit.kernels.triton.clustered import pick_clustered

    def broken():
        raise ToolError("nvcc could not build CUTLASS's GEMM (exit 1): no output")

    with pytest.warns(UserWarning, match="the Triton plan runs, CUTLASS's clustered GEMM failed"):
        assert pick_clustered(lambda: None, broken) == 0


def test_a_library_that_does_not_load_is_a_tool_error(monkeypatch, tmp_path):
    bad = tmp_path / "gemm_bfloat16_bad.so"
    bad.write_text("not a shared library")
    monkeypatch.setattr(cutlass, "build", lambda dtype, tiles: bad)
    cutlass._library.cache_clear()
    with pytest.raises(ToolError, match="does not load"):
        cutlass._library("bfloat16")
    cutlass._library.cache_clear()


def test_cli_builds_both_libraries_or_says_what_is_missing(monkeypatch, capsys, tmp_path):
    import json

    from swizzlekit.cli import main

    from swizzlekit.kernels.cuda import cutlass_fp8

    monkeypatch.setattr(cutlass, "build",
                        lambda dtype, tiles: tmp_path / f"gemm_{dtype}_{hash(tiles)}.so")
    monkeypatch.setattr(cutlass_fp8, "build", lambda tiles: tmp_path / f"gemm_fp8_{hash(tiles)}.so")
    assert main(["kernels", "build", "--cutlass", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["cutlass"]
    assert [r["dtype"] for r in rows] == (["bfloat16"] * 3 + ["float16"] * 3
                                          + ["float8_e4m3fn"] * 5)
    assert [r["tiles"] for r in rows] == [*cutlass.TILES16] * 2 + [cutlass_fp8.TILES,
                                                                    *cutlass_fp8.SWAPPED]
    assert len({r["path"] for r in rows}) == 11
    assert main(["kernels", "build", "--cutlass", "--arch", "sm_80"]) == 2
    assert "--cutlass builds for sm_90a only" in capsys.readouterr().err
    monkeypatch.undo()
    monkeypatch.setattr(cutlass, "headers", lambda: None)
    assert main(["kernels", "build", "--cutlass"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "CUTLASS's headers are not installed" in err[0]


# ---------------------------------------------------------------------------------------- fp8
def _fp8(*shape):
    return torch.ones(*shape).to(torch.float8_e4m3fn)


@pytest.mark.parametrize("args,match", [
    ((torch.ones(4, 16), _fp8(16, 16), torch.ones(()), torch.ones(())),
     "a's dtype torch.float32 is not valid; choose one of: float8_e4m3fn"),
    ((_fp8(4), _fp8(16, 16), torch.ones(()), torch.ones(())),
     "a must be a 2-D torch tensor; got Tensor"),
    ((_fp8(4, 16), _fp8(16, 16), torch.ones(()), torch.ones(())),
     "a must be on a CUDA device, as a; it is on cpu"),
])
def test_fp8_door(args, match):
    from swizzlekit.kernels.cuda.cutlass_fp8 import cutlass_scaled_matmul

    with pytest.raises(SwizzleKitError, match=match):
        cutlass_scaled_matmul(*args)


def test_fp8_build_names_what_is_missing(monkeypatch, tmp_path):
    from swizzlekit.kernels.cuda import cutlass_fp8

    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path))
    monkeypatch.setattr(cutlass, "headers", lambda: None)
    with pytest.raises(ToolError, match="CUTLASS's headers are not installed"):
        cutlass_fp8.build()
    monkeypatch.setattr(cutlass, "headers", lambda: (tmp_path, "0"))
    monkeypatch.setattr(cutlass, "nvcc", lambda: "/bin/false")
    for tiles in (cutlass_fp8.TILES, *cutlass_fp8.SWAPPED):
        with (pytest.warns(UserWarning, match=f"building CUTLASS's fp8 GEMM in {tiles} with"),
              pytest.raises(ToolError, match=f"nvcc could not build CUTLASS's fp8 GEMM in "
                            f"{tiles} \\(exit 1\\)")):
            cutlass_fp8.build(tiles)


@pytest.mark.slow
@pytest.mark.skipif(cutlass.headers() is None or cutlass.nvcc() is None,
                    reason="needs nvcc and the nvidia-cutlass wheel's headers")
@pytest.mark.parametrize("tiles,stem", [("128x256x128/c2x1", "gemm_fp8_"),
                                        ("160x128x128/c2x1/swap-ab", "gemm_fp8_swap160_c2x1_")])
def test_fp8_build_exports_the_gemm(monkeypatch, tmp_path, tiles, stem):
    from swizzlekit.kernels.cuda import cutlass_fp8

    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path))
    with pytest.warns(UserWarning, match=f"building CUTLASS's fp8 GEMM in {tiles}"):
        path = cutlass_fp8.build(tiles)
    lib = ctypes.CDLL(str(path))
    assert lib.swizzlekit_cutlass_fp8_gemm and lib.swizzlekit_cutlass_fp8_workspace
    assert path.name.startswith(stem) and cutlass_fp8.build(tiles) == path


def test_fp8_sized_is_its_bounds_exactly():
    from swizzlekit.kernels.triton.clustered import (FP8_CLUSTER_M, FP8_CLUSTER_MIN_MNK,
                                                     fp8_sized)

    lo, hi = FP8_CLUSTER_M
    for m in (lo - 1, lo, lo + 1, hi - 1, hi, hi + 1):
        for n, k in ((14336, 4096), (4096, 4096), (8192, 8192), (1, 1)):
            assert fp8_sized(m, n, k) == (lo <= m <= hi and m * n * k > FP8_CLUSTER_MIN_MNK)


def test_no_fp8_clustered_route_off_the_gpu():
    from swizzlekit.kernels.triton.clustered import fp8_clustered_route

    a, bt = _fp8(512, 4096), _fp8(14336, 4096)
    assert not fp8_clustered_route(a, bt.T, torch.empty(512, 14336, dtype=torch.bfloat16),
                                   torch.ones(()), torch.ones(()), "auto", False, None, None, {})


@pytest.mark.parametrize("dtype", [torch.float8_e4m3fn, torch.bfloat16], ids=str)
def test_rows_aligned_is_every_rule_at_once(dtype):
    size = torch.finfo(dtype).bits // 8
    base = torch.zeros(4096, dtype=torch.uint8).view(dtype)            # 16-byte aligned
    for offset in (0, 16 // size, 1):
        for cols in range(1, 40):
            for stride in range(cols, 48):
                t = base[offset:].as_strided((3, cols), (stride, 1))
                expect = (cols * size % 16 == 0 and stride * size % 16 == 0
                          and offset * size % 16 == 0)
                assert cutlass.rows_aligned(t) == expect, (offset, cols, stride)
    assert not cutlass.rows_aligned(base[:32 * 16 // size].view(32, -1).T)   # column-major


def test_no_route_times_anything_under_autotune_0(monkeypatch, capsys):
    """SWIZZLEKIT_AUTOTUNE=0 times nothing: neither route is taken, and `kernels configs`
    does not say the first call times CUTLASS."""
    import json

    from swizzlekit.cli import main
    from swizzlekit.kernels.triton import clustered, configs

    monkeypatch.setattr(configs, "_MODE", "0")
    for mnk, precision in (("3000x5000x4000", "bf16"), ("512x14336x4096", "fp8")):
        assert main(["kernels", "configs", "--mnk", mnk, "--precision", precision, "--gpu",
                     "h100-sxm", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["clustered_timed"] is False
    monkeypatch.setattr(clustered, "available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (9, 0))
    a, bt = _fp8(512, 4096), _fp8(14336, 4096)
    c = torch.empty(512, 14336, dtype=torch.bfloat16)
    fake = type("FakeCuda", (), {"type": "cuda"})()
    monkeypatch.setattr(torch.Tensor, "device", property(lambda self: fake))
    try:
        assert not clustered.fp8_clustered_route(a, bt.T, c, torch.ones(()), torch.ones(()),
                                                 "auto", False, None, None, {})
        monkeypatch.setattr(configs, "_MODE", "model")
        assert clustered.fp8_clustered_route(a, bt.T, c, torch.ones(()), torch.ones(()),
                                             "auto", False, None, None, {})
    finally:
        monkeypatch.undo()


def test_a_library_without_its_entry_points_is_a_tool_error():
    import ctypes.util

    libc = ctypes.util.find_library("c")            # loads, but holds no GEMM
    if libc is None:
        pytest.skip("no C library to load here")
    with pytest.raises(ToolError, match="lacks its entry points"):
        cutlass.entry_points(libc, "CUTLASS's GEMM", "swizzlekit_cutlass_gemm", [],
                             "swizzlekit_cutlass_workspace", 3)


@pytest.mark.parametrize("code,error,says", [
    (1, 0, "CUTLASS cannot run these arguments"), (2, 0, "its workspace was too small"),
    (3, 0, "its initialization failed"), (4, 700, "the launch failed (CUDA error 700)"),
    (9, 0, "code 9")])
def test_a_failed_launch_names_the_shape_and_the_cause(code, error, says):
    e = cutlass.failed("CUTLASS's GEMM", (300, 1000, 512), code, error)
    assert isinstance(e, ToolError)
    assert str(e) == f"CUTLASS's GEMM at 300x1000x512: {says}"


@pytest.mark.parametrize("tiles", ["128x256x128", "96x128x128/c2x1", None])
def test_fp8_tiles_are_named(tiles):
    from swizzlekit.kernels.cuda import cutlass_fp8

    with pytest.raises(SwizzleKitError, match="tiles .* is not valid; choose one of: "
                       "128x256x128/c2x1, 96x128x128/c1x2/swap-ab"):
        cutlass_fp8.build(tiles)


def test_padded_rows_are_the_least_cover_in_whole_clusters():
    """Every M from 1 to 2048 in every build: whole tiles, whole clusters along M, and no
    cluster more than M needs."""
    from swizzlekit.kernels.cuda.cutlass_fp8 import SWAPPED, TILES, padded_rows

    for tiles, (rows, along_m, _) in {TILES: (128, 2, 1), **SWAPPED}.items():
        for M in range(1, 2049):
            covered = padded_rows(M, tiles)
            assert covered >= M and covered % (rows * along_m) == 0
            assert covered - rows * along_m < M, (tiles, M)


def test_fp8_tiles_swap_exactly_where_the_library_pads_by_a_third():
    """Every M of the route's rows: its own tiles where they pad M by less than
    FP8_SWAP_PAD, else a swapped build padding no more than any other (ties: taller tiles)."""
    from swizzlekit.kernels.cuda.cutlass_fp8 import SWAPPED, TILES, padded_rows
    from swizzlekit.kernels.triton.clustered import FP8_CLUSTER_M, FP8_SWAP_PAD, fp8_tiles

    swapped = 0
    for M in range(FP8_CLUSTER_M[0], FP8_CLUSTER_M[1] + 1):
        tiles = fp8_tiles(M)
        if padded_rows(M, TILES) < FP8_SWAP_PAD * M:
            assert tiles == TILES
            continue
        swapped += 1
        least = min(padded_rows(M, t) for t in SWAPPED)
        assert tiles in SWAPPED and padded_rows(M, tiles) == least
        assert SWAPPED[tiles][0] == max(r for t, (r, *_) in SWAPPED.items()
                                        if padded_rows(M, t) == least)
    assert swapped == (384 - 256) + (576 - 512)           # 257-384 and 513-576 rows


@pytest.mark.parametrize("mnk,precision,candidates", [
    ("302x14976x7056", "fp8", ["128x256x128/c2x1", "128x256x128/c2x1/stream-k",
                               "160x128x128/c2x1/swap-ab", "160x128x128/c2x1/swap-ab/stream-k"]),
    ("512x14336x4096", "fp8", ["128x256x128/c2x1", "128x256x128/c2x1/stream-k"]),
    ("3000x5000x4000", "bf16", ["128x256x64/c2x1", "256x128x64/c1x2", "256x192x64/c1x2"]),
    ("4096x4096x4096", "fp8", []), ("3000x5120x4000", "bf16", [])])
def test_configs_list_the_cutlass_candidates(capsys, mnk, precision, candidates):
    """`kernels configs --json` names every CUTLASS candidate the first call times, as
    ``describe`` would name the one kept; none where it times none."""
    import json

    from swizzlekit.cli import main

    assert main(["kernels", "configs", "--mnk", mnk, "--precision", precision, "--gpu",
                 "h100-sxm", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["clustered_candidates"] == candidates
    assert out["clustered_timed"] is bool(candidates)


def test_the_16_bit_tiles_are_named(monkeypatch, tmp_path):
    """Each 16-bit build's door names the valid tiles, and a failed build names its tiles."""
    with pytest.raises(SwizzleKitError, match="tiles '64x64' is not valid; choose one of: "
                       "128x256x64/c2x1, 256x128x64/c1x2"):
        cutlass.build("bfloat16", "64x64")
    with pytest.raises(SwizzleKitError, match="tiles '64x64' is not valid"):
        cutlass.cutlass_matmul(torch.ones(4, 4), torch.ones(4, 4), tiles="64x64")
    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path))
    monkeypatch.setattr(cutlass, "headers", lambda: (tmp_path, "0"))
    monkeypatch.setattr(cutlass, "nvcc", lambda: "/bin/false")
    with (pytest.warns(UserWarning, match="CUTLASS's GEMM for float16 in 256x128x64/c1x2"),
          pytest.raises(ToolError, match=r"CUTLASS's GEMM for float16 in 256x128x64/c1x2 "
                        r"\(exit 1\)")):
        cutlass.build("float16", "256x128x64/c1x2")
    from swizzlekit.kernels.triton.clustered import CUTLASS_CANDIDATES

    assert CUTLASS_CANDIDATES == tuple(cutlass.TILES16)
    assert CUTLASS_CANDIDATES[0] == cutlass.CONFIG        # the library's own tiles first


def test_cli_builds_the_libraries_side_by_side(monkeypatch, capsys, tmp_path):
    """``kernels build --cutlass`` runs its builds in threads, up to CUTLASS_BUILDS_AT_ONCE at
    once: two stub builds that each wait for another to start both finish, and the rows keep
    their order."""
    import json
    import os
    import threading

    from swizzlekit.cli import kernels as cli_kernels
    from swizzlekit.cli import main
    from swizzlekit.kernels.cuda import cutlass_fp8

    both, lock, started = threading.Barrier(2, timeout=10), threading.Lock(), []

    def build(dtype, tiles=cutlass.CONFIG):
        with lock:
            started.append(tiles)
            first_two = len(started) <= 2
        if first_two:                           # the first two jobs meet at the barrier
            both.wait()
        return tmp_path / f"gemm_{dtype}_{tiles.replace('/', '_')}.so"

    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setattr(cutlass, "build", build)
    monkeypatch.setattr(cutlass_fp8, "build", lambda tiles: build("fp8", tiles))
    assert cli_kernels.CUTLASS_BUILDS_AT_ONCE >= 2
    assert main(["kernels", "build", "--cutlass", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["cutlass"]
    n = len(cutlass.TILES16)
    assert [(r["dtype"], r["tiles"]) for r in rows[:n]] == [("bfloat16", t) for t in
                                                           cutlass.TILES16]
    assert rows[-1]["tiles"] == list(cutlass_fp8.SWAPPED)[-1]


def test_build_all_runs_the_builds_side_by_side_and_raises_the_first_error():
    """The first call's CUTLASS libraries build side by side (stub builds that wait for each
    other finish), one build runs alone, and a failed build's error reaches the caller (the
    route then warns and keeps the Triton plan)."""
    import threading

    from swizzlekit.kernels.cuda.cutlass import build_all
    from swizzlekit.kernels.triton.clustered import pick_clustered

    both, ran = threading.Barrier(2, timeout=10), []
    build_all([both.wait, both.wait])
    assert build_all([lambda: ran.append(1) or "one"]) == ["one"]
    assert build_all([]) == []
    assert build_all([lambda: 1, lambda: 2, lambda: 3], at_once=2) == [1, 2, 3]
    with pytest.raises(SwizzleKitError, match="builds must be callables"):
        build_all(["gemm_bfloat16.so"])
    with pytest.raises(SwizzleKitError, match="at_once must be an integer"):
        build_all([lambda: 1], at_once=1.5)
    assert ran == [1]

    def broken():
        raise ToolError("nvcc could not build CUTLASS's GEMM (exit 1): no output")

    with pytest.raises(ToolError, match="nvcc could not build"):
        build_all([lambda: None, broken])
    with pytest.warns(UserWarning, match="the Triton plan runs, CUTLASS's clustered GEMM failed"):
        assert pick_clustered(lambda: None, lambda: None, builds=[lambda: None, broken]) == 0
