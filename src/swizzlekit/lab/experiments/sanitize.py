"""Every CUDA rung and every Triton GEMM path once, under compute-sanitizer's memcheck,
racecheck and synccheck.

``swizzlekit lab sanitize --out DIR`` runs this module's child under each tool; an
out-of-bounds or misaligned access, a shared-memory race or a barrier hazard fails it (exit 1,
naming the tool), and each tool's log lands in ``DIR`` with ``summary.json`` (the tool, its
exit code, the paths it ran and the errors it counted).

The paths (:data:`TRITON_PATHS`): the 16-bit GEMM by pointer loads, swapped (few rows), by TMA,
persistent, split over K, on copies of ragged operands for TMA with C by masked stores, in
the three composite tiles and a tail split (launched directly: calls this small never time
them; the tail split's shares add their partials across SMs, racecheck's case), TF32
(on aligned copies of ragged operands too, and on B K-major with C from registers, launched
directly too) and fp32; fp8 with
scales by pointer loads and by TMA, per tensor and per row, and its tail split (launched
directly); the tutorial baseline; and the
order-table GEMM. Shapes are small and ragged, so edge tiles and K tails run. The child runs
with ``SWIZZLEKIT_AUTOTUNE=0`` (one config per path, not a timing sweep under the tool), and
copies forced from any size (``copies.PAD_MIN_MNK`` and ``copies.COPY_MIN_MNK`` 1) so the copies'
paths run at those sizes.

CUDA API calls that return an error are not reported (``--report-api-errors no``):
cuda-bindings probes driver entry points with ``cuGetProcAddress`` when it loads a module,
and the symbols this driver lacks come back as ``CUDA_ERROR_INVALID_VALUE`` by design (34
such reports on the H200, 2026-11-22, none from a kernel). A failing call of ours raises
(``kernels/cuda/launch.py``, Triton's launcher, torch), which fails the child, and the child
checks every output against float64.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from swizzlekit.errors import ToolError

__all__ = ["TOOLS", "TRITON_PATHS", "launch_all", "run"]

#: compute-sanitizer's tools, run in turn.
TOOLS = ("memcheck", "racecheck", "synccheck")
#: (name, M, N, K, dtype, keyword arguments of the call)
TRITON_PATHS = (
    ("bf16 pointer", 129, 257, 72, "bf16", {"tma": False}),
    ("bf16 swapped (M <= 128)", 48, 520, 136, "bf16", {}),
    ("bf16 TMA", 256, 384, 200, "bf16", {"tma": True}),
    ("bf16 TMA persistent", 384, 384, 256, "bf16", {"tma": True, "persistent": True}),
    ("bf16 split-K", 64, 512, 1024, "bf16", {"split_k": 2}),
    ("bf16 split-K, ragged, TMA (edge tiles' whole blocks)", 300, 520, 1000, "bf16",
     {"split_k": 3, "tma": True}),
    ("fp8 split-K, ragged", 200, 272, 512, "fp8", {"split_k": 2}),
    ("bf16 copies for TMA, C by masked stores", 130, 250, 67, "bf16", {}),
    ("bf16 composite tile 128x(128+32)", 300, 440, 200, "wide", {"tile": 0}),
    ("bf16 composite tile 128x(128+64)", 300, 440, 200, "wide", {"tile": 1}),
    ("bf16 composite tile (128+64)x(128+64)", 300, 440, 200, "wide", {"tile": 2}),
    ("bf16 tail split (the last partial wave's tiles split over K)", 1163, 4096, 136, "tail",
     {}),
    ("tf32 aligned copies", 130, 250, 67, "fp32", {"precision": "tf32"}),
    ("fp16 grouped order", 300, 260, 96, "fp16", {"order": "grouped"}),
    ("tf32", 200, 264, 120, "fp32", {"precision": "tf32"}),
    ("tf32 B K-major, C from registers (128x256x32)", 300, 261, 120, "regs", {}),
    ("fp32 ieee", 130, 136, 64, "fp32", {"precision": "ieee"}),
    ("fp8 pointer", 129, 272, 256, "fp8", {"tma": False}),
    ("fp8 TMA rowwise", 256, 256, 208, "fp8", {"tma": True, "rowwise": True}),
    ("fp8 tail split, rowwise, C by masked stores", 1163, 4100, 256, "fp8",
     {"tail": True, "rowwise": True}),
    ("baseline bf16", 256, 256, 128, "baseline", {}),
    ("order table", 300, 260, 128, "table", {}),
)


def _check(out, ref, what: str) -> None:
    import torch

    err = ((out.double() - ref).norm() / ref.norm()).item()
    if not err < 2e-2:                       # NaN fails too
        raise AssertionError(f"{what}: relative error {err:.3g} against float64")
    if not torch.isfinite(out).all():
        raise AssertionError(f"{what}: non-finite outputs")


def _triton_path(name: str, m: int, n: int, k: int, kind: str, kwargs: dict) -> None:
    import torch

    from swizzlekit import kernels
    from swizzlekit.cta import order
    from swizzlekit.kernels.triton.baseline import matmul_baseline
    from swizzlekit.kernels.triton.scaled import scaled_matmul
    from swizzlekit.kernels.triton.table_gemm import table_gemm

    gen = torch.Generator(device="cuda").manual_seed(0)
    kwargs = dict(kwargs)
    if kind == "fp8":
        a = torch.randn(m, k, device="cuda", generator=gen).to(torch.float8_e4m3fn)
        bt = torch.randn(n, k, device="cuda", generator=gen).to(torch.float8_e4m3fn)
        rowwise, tail = kwargs.pop("rowwise", False), kwargs.pop("tail", False)
        sa = torch.rand(m if rowwise else 1, 1, device="cuda", generator=gen) + 0.5
        sb = torch.rand(1, n if rowwise else 1, device="cuda", generator=gen) + 0.5
        if tail:                # what an fp8 call at a half-empty last wave times, launched
            from swizzlekit.kernels.triton import scaled    # directly (C's rows 8200 bytes)
            out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            scaled._launch(a, bt.T, out, sa.reshape(-1).contiguous(),
                           sb.reshape(-1).contiguous(), None, "grouped", 16, rowwise, False,
                           True, True, 1, None, True)
        else:
            out = scaled_matmul(a, bt.T, sa.reshape(-1, 1) if rowwise else sa.reshape(()),
                                sb.reshape(1, -1) if rowwise else sb.reshape(()), **kwargs)
        ref = (a.double() * sa.double()) @ (bt.double().T * sb.double())
        _check(out, ref, name)
        return
    if kind == "tail":          # what a 16-bit call at a half-empty last wave times
        from swizzlekit.kernels.triton import matmul as mm

        a = torch.randn(m, k, device="cuda", generator=gen).to(torch.bfloat16)
        b = torch.randn(k, n, device="cuda", generator=gen).to(torch.bfloat16)
        out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        mm._launch(a, b, b, b, out, None, "grouped", 8, "tf32", False, True, False, False,
                   False, 1, None, False, True)
        _check(out, a.double() @ b.double(), name)
        return
    if kind == "regs":          # what a TF32 call on B K-major times on its first call
        from swizzlekit.kernels.triton import matmul as mm

        a = torch.randn(m, k, device="cuda", generator=gen)
        bt = torch.randn(n, k, device="cuda", generator=gen)
        out = torch.full((m, n), float("nan"), device="cuda")
        mm._launch(a, bt.T, bt, bt, out, None, "grouped", 8, "tf32", False, True, True, False,
                   False, 1, None, True)
        _check(out, a.double() @ bt.double().T, name)
        return
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32,
             "baseline": torch.bfloat16, "table": torch.float16, "wide": torch.bfloat16}[kind]
    a = torch.randn(m, k, device="cuda", generator=gen).to(dtype)
    b = torch.randn(k, n, device="cuda", generator=gen).to(dtype)
    if kind == "baseline":
        out = matmul_baseline(a, b)
    elif kind == "table":
        out = table_gemm(a, b, order("hilbert", -(-m // 128), -(-n // 128)))
    elif kind == "wide":
        from swizzlekit.kernels.triton.call import _slots
        from swizzlekit.kernels.triton.waves import WIDE_TILES
        from swizzlekit.kernels.triton.wide_kernel import wide_plan

        out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        wide_plan(a, b, out, WIDE_TILES[kwargs["tile"]], "grouped", 8,
                  lambda tm, tn: _slots("grouped", 8, tm, tn))
    else:
        out = kernels.matmul(a, b, **kwargs)
    _check(out, a.double() @ b.double(), name)


def launch_all() -> list[str]:
    """Every CUDA rung on a ragged and a square shape, then every Triton path; the names run."""
    import torch

    from swizzlekit.kernels.cuda.ladder import RUNGS, run as run_rung
    from swizzlekit.kernels.triton import copies

    ran = []
    for m, n, k in ((129, 257, 65), (256, 256, 256)):
        a = torch.randn(m, k, device="cuda")
        b = torch.randn(k, n, device="cuda")
        for r in RUNGS:
            out = run_rung(r.name, a, b)
            if out is not None:
                _check(out, a.double() @ b.double(), f"{r.name} {m}x{n}x{k}")
            ran.append(f"cuda {r.name} {m}x{n}x{k}")
    copies.PAD_MIN_MNK = copies.COPY_MIN_MNK = 1    # the copies' paths at sanitizer-sized shapes
    for name, m, n, k, kind, kwargs in TRITON_PATHS:
        _triton_path(name, m, n, k, kind, kwargs)
        ran.append(f"triton {name} {m}x{n}x{k}")
    torch.cuda.synchronize()
    return ran


def _errors(log: str) -> int:
    """compute-sanitizer's own count: its closing ``ERROR SUMMARY: N errors`` line, or
    racecheck's ``RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)``; -1 where
    the log has neither.

    >>> _errors("========= ERROR SUMMARY: 0 errors"), _errors("no summary")
    (0, -1)
    >>> _errors("========= RACECHECK SUMMARY: 2 hazards displayed (1 errors, 1 warnings)")
    1
    """
    found = re.findall(r"ERROR SUMMARY: (\d+) error|RACECHECK SUMMARY: \d+ hazards? displayed "
                       r"\((\d+) errors?", log)
    return int(next(v for v in found[-1] if v)) if found else -1


def run(out: Path) -> Path:
    tool = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not Path(tool).exists():
        raise ToolError("compute-sanitizer not found on PATH or in /usr/local/cuda/bin")
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SWIZZLEKIT_AUTOTUNE": "0", "PYTHONUNBUFFERED": "1"}
    summary, failed = [], []
    for check in TOOLS:
        done = subprocess.run([tool, "--tool", check, "--error-exitcode", "1",
                               "--report-api-errors", "no", sys.executable,
                               "-m", "swizzlekit.lab.experiments.sanitize"],
                              capture_output=True, text=True, env=env)
        log = done.stdout + done.stderr
        (out / f"{check}.log").write_text(log)
        ran = [line[len("ran: "):] for line in log.splitlines() if line.startswith("ran: ")]
        summary.append({"tool": check, "exit": done.returncode, "errors": _errors(log),
                        "paths": ran})
        if done.returncode != 0:
            failed.append(check)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    if failed:
        raise ToolError(f"compute-sanitizer {', '.join(failed)} failed (errors, or a child that "
                        f"did not finish); see {out}/<tool>.log")
    return out / "summary.json"


if __name__ == "__main__":          # the child that compute-sanitizer runs
    for line in launch_all():
        print("ran:", line)
