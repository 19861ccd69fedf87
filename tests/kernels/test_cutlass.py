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
          pytest.raises(ToolError, match=r"nvcc could not build CUTLASS's GEMM \(exit 1\)")):
        cutlass.build("float16")
    assert not list((tmp_path / "cutlass").glob("*.so"))


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
        assert pick_clustered(lambda: None, broken) is False


def test_a_library_that_does_not_load_is_a_tool_error(monkeypatch, tmp_path):
    bad = tmp_path / "gemm_bfloat16_bad.so"
    bad.write_text("not a shared library")
    monkeypatch.setattr(cutlass, "build", lambda dtype: bad)
    cutlass._library.cache_clear()
    with pytest.raises(ToolError, match="does not load"):
        cutlass._library("bfloat16")
    cutlass._library.cache_clear()


def test_cli_builds_both_libraries_or_says_what_is_missing(monkeypatch, capsys, tmp_path):
    import json

    from swizzlekit.cli import main

    monkeypatch.setattr(cutlass, "build", lambda dtype: tmp_path / f"gemm_{dtype}.so")
    assert main(["kernels", "build", "--cutlass", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["cutlass"]
    assert [r["dtype"] for r in rows] == ["bfloat16", "float16"]
    assert main(["kernels", "build", "--cutlass", "--arch", "sm_80"]) == 2
    assert "--cutlass builds for sm_90a only" in capsys.readouterr().err
    monkeypatch.undo()
    monkeypatch.setattr(cutlass, "headers", lambda: None)
    assert main(["kernels", "build", "--cutlass"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "CUTLASS's headers are not installed" in err[0]
