"""Every CUDA rung once on a ragged and a square shape, under compute-sanitizer.

``swizzlekit lab sanitize --out DIR`` runs this module's child under ``compute-sanitizer
--tool memcheck`` and ``--tool racecheck``; an out-of-bounds access or a shared-memory race
fails it (exit 1), and both logs land in ``DIR``.

CUDA API calls that return an error are not reported (``--report-api-errors no``):
cuda-bindings probes driver entry points with ``cuGetProcAddress`` when it loads a module,
and the symbols this driver lacks come back as ``CUDA_ERROR_INVALID_VALUE`` by design (34
such reports on the H200, 2026-11-22, none from a kernel). A failing call of ours raises in
``kernels/cuda/launch.py`` anyway, which fails the child.
"""

import shutil
import subprocess
import sys
from pathlib import Path

from swizzlekit.errors import ToolError


def launch_all() -> None:
    import torch

    from swizzlekit.kernels.cuda.ladder import RUNGS, run as run_rung

    for m, n, k in ((129, 257, 65), (256, 256, 256)):
        a = torch.randn(m, k, device="cuda")
        b = torch.randn(k, n, device="cuda")
        for r in RUNGS:
            run_rung(r.name, a, b)
    torch.cuda.synchronize()


def run(out: Path) -> Path:
    tool = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not Path(tool).exists():
        raise ToolError("compute-sanitizer not found on PATH or in /usr/local/cuda/bin")
    out.mkdir(parents=True, exist_ok=True)
    for check in ("memcheck", "racecheck"):
        done = subprocess.run([tool, "--tool", check, "--error-exitcode", "1",
                               "--report-api-errors", "no", sys.executable,
                               "-m", "swizzlekit.lab.experiments.sanitize"],
                              capture_output=True, text=True)
        (out / f"{check}.log").write_text(done.stdout + done.stderr)
        if done.returncode != 0:
            raise ToolError(f"compute-sanitizer {check} found errors; see {out / check}.log")
    return out / "memcheck.log"


if __name__ == "__main__":          # the child that compute-sanitizer runs
    launch_all()
