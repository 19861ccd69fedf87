"""A small Nsight Compute wrapper: run a command under ``ncu`` and parse its CSV.

Nsight Compute serializes every profile on a host through one lock file in ``$TMPDIR``. A
profile only needs its own GPU to itself, so :func:`profile` gives ncu a folder per GPU
(:func:`lock_dir`): swizzlekit's profiles on one GPU still wait for each other, and those on
different GPUs (``--cluster``) run side by side.

Only the raw page is used (``--page raw --csv``): one row per profiled kernel launch,
one column per requested metric. The clocks are always left alone
(``--clock-control none``), so what is measured is the card as it runs.

>>> rows = parse_csv('''==PROF== Connected to process 1
... "ID","Kernel Name","l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
... "","",""
... "0","ld_w4","1"
... "1","ld_w16","1,024"
... ''')
>>> [(r["Kernel Name"], r["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]) for r in rows]
[('ld_w4', 1.0), ('ld_w16', 1024.0)]
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from swizzlekit.errors import ToolError

__all__ = ["NcuError", "find_ncu", "parse_csv", "profile", "lock_dir"]

#: Columns that stay text; every other column is parsed as a number where it can be.
_TEXT_COLUMNS = {"Kernel Name", "Process Name", "Host Name", "Context", "Stream",
                 "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Unit"}


class NcuError(ToolError):
    """Nsight Compute is missing, failed, or printed something this parser cannot read."""


def find_ncu() -> str:
    """The path of the ``ncu`` executable, or :class:`NcuError` naming where it looked."""
    for candidate in ("ncu", "/usr/local/cuda/bin/ncu"):
        path = shutil.which(candidate)
        if path:
            return path
    raise NcuError("ncu (Nsight Compute) not found on PATH or in /usr/local/cuda/bin")


def _number(text: str) -> float | str:
    cleaned = text.replace(",", "").strip()
    try:
        return float(cleaned)
    except ValueError:
        return text


def parse_csv(text: str) -> list[dict[str, float | str]]:
    """Parse ``ncu --page raw --csv`` output into one dict per kernel launch.

    Lines before the header (``==PROF==`` chatter, the program's own output) are skipped;
    the units row after the header is dropped; thousands separators are removed.
    """
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        raise NcuError("no CSV header (a line starting with \"ID\") in ncu's output")
    reader = csv.reader(io.StringIO("\n".join(lines[start:])))
    header = next(reader)
    rows: list[dict[str, float | str]] = []
    for fields in reader:
        if len(fields) != len(header) or fields[0] == "" or fields[0].startswith("=="):
            continue
        rows.append({name: (value if name in _TEXT_COLUMNS else _number(value))
                     for name, value in zip(header, fields)})
    return rows


def lock_dir() -> Path:
    """The ``TMPDIR`` ncu runs with: one folder per GPU (by UUID), so its lock is per GPU."""
    from swizzlekit.lab.harness import this_gpu

    uuid = re.sub(r"[^A-Za-z0-9-]", "", this_gpu()[1]) or "nogpu"
    folder = Path(tempfile.gettempdir()) / f"swizzlekit-ncu-{uuid}"
    folder.mkdir(mode=0o700, exist_ok=True)
    if not os.access(folder, os.W_OK):
        raise NcuError(f"{folder} (ncu's lock folder for this GPU) is not writable")
    return folder


def profile(command: Sequence[str], metrics: Sequence[str], *, kernel_regex: str | None = None,
            extra_args: Sequence[str] = (), timeout: float | None = None,
            keep_log: Path | None = None) -> list[dict[str, float | str]]:
    """Run ``command`` under ncu, collecting ``metrics`` for every matching kernel launch.

    Returns the parsed rows in launch order. Raises :class:`NcuError` with ncu's own message
    when it fails (no GPU, counters not permitted, unknown metric). ``keep_log`` saves ncu's
    raw CSV there as well.
    """
    if not metrics:
        raise NcuError("profile() needs at least one metric")
    ncu = find_ncu()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "ncu.csv"
        args = [ncu, "--clock-control", "none", "--csv", "--page", "raw",
                "--metrics", ",".join(metrics), "--log-file", str(log), *extra_args]
        if kernel_regex:
            args += ["--kernel-name", f"regex:{kernel_regex}"]
        env = {**os.environ, "TMPDIR": str(lock_dir())}
        done = subprocess.run([*args, *command], capture_output=True, text=True,
                              timeout=timeout, env=env)
        text = log.read_text() if log.exists() else ""
        if keep_log is not None:
            Path(keep_log).write_text(text)
        if done.returncode != 0:
            tail = (done.stderr or text or done.stdout).strip().splitlines()[-5:]
            raise NcuError(f"ncu exited with {done.returncode}: {' | '.join(tail)}")
    return parse_csv(text)
