"""CUDA kernels compile with NVRTC without a GPU; the bank model predicts the ladder's reads."""

import json

import pytest

pytest.importorskip("cuda.bindings")

from swizzlekit.cli import main  # noqa: E402
from swizzlekit.kernels.cuda.ladder import RUNGS, expressions  # noqa: E402
from swizzlekit.kernels.cuda.nvrtc import CompileError, compile_cuda  # noqa: E402
from swizzlekit.smem import Instruction, RowMajor, Swizzle, Swizzled, analyze  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_build_every_kernel(arch, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path))
    assert main(["kernels", "build", "--arch", arch, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["kernels"]
    assert len(rows) == sum(len(expressions(r)) for r in RUNGS)
    for r in rows:
        assert r["registers"] > 0 and r["spill_stores"] == 0, r
        if r["kernel"] in ("cuda_sgemmopt", "cuda_bank_free"):
            assert r["smem_bytes"] == 2 * 2 * 8 * 128 * 4         # double-buffered A and B
    assert main(["kernels", "build", "--arch", arch, "--json"]) == 0   # now from the cache
    assert len(json.loads(capsys.readouterr().out)["kernels"]) == len(rows)


def test_compile_errors_carry_nvrtc_log(tmp_path, monkeypatch):
    monkeypatch.setenv("SWIZZLEKIT_CACHE", str(tmp_path))
    with pytest.raises(CompileError, match="identifier \"undefined_thing\" is undefined"):
        compile_cuda("__global__ void k() { undefined_thing = 1; }", ["k"], use_cache=False)


def test_ptx_has_vector_shared_loads(capsys):
    assert main(["kernels", "ptx", "cuda_bank_free"]) == 0
    assert "ld.shared.v4.f32" in capsys.readouterr().out


def _b_read(swizzle: bool, half: int) -> Instruction:
    """Warp 0 of sgemm_reg reading its B fragment: thread (tx, ty), tid = 16 ty + tx, reads the
    float4 at column tx*8 (+4 for the second half) of one 128-float row."""
    return Instruction(f"B read {half}", "ld", 16,
                       tuple((0, (lane % 16) * 8 + 4 * half) for lane in range(32)))


def test_bank_model_predicts_sgemmopt_conflicts_and_the_fix():
    plain = RowMajor(8, 128)
    fixed = Swizzled(8, 128, Swizzle(1, 2, 3))
    for half in (0, 1):
        before = analyze(plain, [_b_read(False, half)], 4).reports[0]
        after = analyze(fixed, [_b_read(True, half)], 4).reports[0]
        # four quarter-warp phases (lanes i and i^16 share addresses, which merges nothing),
        # each 2-way conflicted: seed 002's "8 transactions per warp"
        assert (before.worst, before.ideal[0]) == (8, 4)
        assert (after.worst, after.ideal[0]) == (4, 4)


def _predicted_conflicts(kernel: str, m: int, n: int, k: int) -> tuple[int, int]:
    """Shared-memory bank conflicts of sgemm_reg from the bank model, instruction by
    instruction, times how often each warp issues it: (loads, stores)."""
    swizzle = kernel == "cuda_bank_free"
    lay = Swizzled(8, 128, Swizzle(1, 2, 3)) if swizzle else RowMajor(8, 128)
    warps = (-(-m // 128)) * (-(-n // 128)) * 8
    steps = -(-k // 8)
    per_k = sum(analyze(lay, [_b_read(swizzle, h)], 4).reports[0].worst
                - analyze(lay, [_b_read(swizzle, h)], 4).reports[0].ideal[0] for h in (0, 1))
    # A's transposed store: lane t writes As[(t%2)*4 + i][t/2] for i in 0..3 (4-byte stores)
    st = 0
    for i in range(4):
        ins = Instruction("A store", "st", 4, tuple(((t % 2) * 4 + i, t // 2) for t in range(32)))
        rep = analyze(lay, [ins], 4).reports[0]
        st += rep.worst - rep.ideal[0]
    return warps * steps * 8 * per_k, warps * steps * st


def test_bank_model_predicts_the_measured_conflicts_of_the_ladder():
    """docs/sgemm.md: ncu on the H200 (docs/data/sgemm, a run log, not package data) against
    the model."""
    import csv
    from pathlib import Path

    table = Path(__file__).parents[2] / "docs/data/sgemm/ladder_ncu_seed001_sizes.csv"
    rows = list(csv.DictReader(open(table)))
    for r in rows:
        if r["kernel"] not in ("cuda_sgemmopt", "cuda_bank_free"):
            continue
        m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
        ld, st = _predicted_conflicts(r["kernel"], m, n, k)
        st_measured = int(r["smem_bank_conflicts_st"])
        assert abs(st_measured - st) <= 0.001 * st + 4, (r, st)
        if r["kernel"] == "cuda_sgemmopt":
            assert abs(int(r["smem_bank_conflicts_ld"]) - ld) <= 0.0001 * ld, (r, ld)
        else:
            assert ld == 0 and int(r["smem_bank_conflicts_ld"]) <= 0.0002 * (
                _predicted_conflicts("cuda_sgemmopt", m, n, k)[0])


def test_peak_microbenchmarks_compile_to_the_instructions_they_time():
    """lab/experiments/peak.cu: FFMA chains and mma.sync (TF32 m16n8k8, FP16 m16n8k16), no spills."""
    pytest.importorskip("cuda.bindings")
    from pathlib import Path

    from swizzlekit.kernels.cuda.nvrtc import compile_cuda
    from swizzlekit.lab.experiments import peak

    src = (Path(peak.__file__).with_name("peak.cu")).read_text()
    c = compile_cuda(src, list(peak.KERNELS), arch="sm_90", filename="peak.cu")
    for instr in ("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"):
        n = c.ptx.count(instr)         # CHAINS per iteration; NVVM may unroll the loop
        assert n >= 8 and n % 8 == 0, (instr, n)
    assert c.ptx.count("fma.rn.f32") >= 64
    assert all(r["spill_stores"] == 0 for r in c.resources.values())


def test_bank_probes_compile_through_the_one_nvrtc_path():
    """lab/experiments/banks.cu builds with NVRTC (no nvcc), one kernel per op and width, each
    issuing the shared-memory instruction it is named for."""
    pytest.importorskip("cuda.bindings")
    from pathlib import Path

    from swizzlekit.kernels.cuda.nvrtc import compile_cuda
    from swizzlekit.lab.experiments import banks

    names = sorted({banks.kernel_name(p.op, p.width) for p in banks.patterns()})
    assert len(names) == 12
    src = (Path(banks.__file__).with_name("banks.cu")).read_text()
    compiled = compile_cuda(src, names, arch="sm_90", filename="banks.cu")
    assert set(compiled.lowered) == set(names)
    assert "ld.shared.v4.f32" in compiled.ptx and "stmatrix.sync.aligned.m8n8.x4" in compiled.ptx
