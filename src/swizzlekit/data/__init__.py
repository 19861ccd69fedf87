"""Measured tables that ship with swizzlekit: what the models are judged against, and the
committed H200 results the report shows when no GPU is at hand.

Only the tables code reads live here; run logs are in the repository's docs/data. Each was
written by ``swizzlekit lab`` or ``swizzlekit bench`` on the H200; docs/ names the command,
date and versions beside every number taken from them.

>>> path("l2_h200.csv").exists()
True
"""

from __future__ import annotations

from pathlib import Path

from swizzlekit.errors import SwizzleKitError

__all__ = ["FOLDER", "path"]

FOLDER = Path(__file__).parent


def path(name: str) -> Path:
    """The shipped file ``name`` (e.g. ``"bench/tall_wide.csv"``); a clear error if absent
    or outside the package's data folder."""
    if not isinstance(name, (str, Path)):
        raise SwizzleKitError(f"a measured table's name must be a string; got {name!r}")
    p = FOLDER / name
    if not p.is_file() or not p.resolve().is_relative_to(FOLDER.resolve()):
        raise SwizzleKitError(f"no measured table {name!r} in {FOLDER}")
    return p
