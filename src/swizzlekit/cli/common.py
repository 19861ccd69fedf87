"""What every command group shares: the parser that turns usage errors into one line, the
``RxC`` / ``MxNxK`` argument types, output-path checks, order parsing, and printing.

>>> dims(3)("8192x8192x512")
(8192, 8192, 512)
>>> parse_order("grouped:group=8")
('grouped', {'group': 8})
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from swizzlekit.errors import SwizzleKitError, ToolError

__all__ = ["Parser", "dims", "positive", "emit", "out_file", "out_dir", "order_params",
           "parse_order", "need_gpu"]


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (raised as SwizzleKitError: exit code 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise SwizzleKitError(f"{self.prog}: {message}")


def dims(count: int):
    """An argparse type for ``RxC`` (count 2) or ``MxNxK`` (count 3) positive integers."""
    def parse(text: str) -> tuple[int, ...]:
        parts = text.strip().split("x")
        if len(parts) != count or not all(p.isdigit() and 0 < int(p) < 2**40 for p in parts):
            form = "MxNxK" if count == 3 else "RxC"
            raise argparse.ArgumentTypeError(f"{text!r} must be {form} with positive integers")
        return tuple(int(p) for p in parts)
    return parse


def positive(text: str) -> int:
    """An argparse type for a positive integer."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive integer")
    return int(text)


def emit(obj: dict, as_json: bool, text: str) -> None:
    print(json.dumps(obj, indent=2, default=str) if as_json else text)


def _writable_dir(folder: Path, what: str) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".swizzlekit-"):
            pass
    except OSError as e:
        raise SwizzleKitError(f"{what} {folder} is not a writable folder: "
                              f"{e.strerror or e}") from None


def out_file(path: Path, suffixes: tuple[str, ...], what: str = "--out") -> Path:
    """A file to write: one of ``suffixes``, not a folder, in a folder that can be written."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise SwizzleKitError(f"{what} {path} must end in {' or '.join(suffixes)}")
    if path.is_dir():
        raise SwizzleKitError(f"{what} {path} is a folder; give a file name ending in "
                              f"{' or '.join(suffixes)}")
    _writable_dir(path.parent if str(path.parent) else Path("."), what)
    if path.exists() and not os.access(path, os.W_OK):
        raise SwizzleKitError(f"{what} {path} exists and cannot be overwritten")
    existed = path.exists()
    try:                                # the name itself (too long, a character refused)
        with open(path, "ab"):
            pass
    except OSError as e:
        raise SwizzleKitError(f"{what} {path} cannot be written: {e.strerror or e}") from None
    if not existed:
        path.unlink()
    return path


def out_dir(path: Path, what: str = "--out") -> Path:
    """A folder to write into: created if missing, never an existing file."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise SwizzleKitError(f"{what} {path} is a file; give a folder")
    _writable_dir(path, what)
    return path


def order_params(pairs: list[str]) -> dict:
    """``["group=8", "along=n"]`` -> ``{"group": 8, "along": "n"}``."""
    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise SwizzleKitError(f"order parameter {pair!r} must be KEY=VALUE, e.g. group=8")
        if key in out:
            raise SwizzleKitError(f"order parameter {key!r} given twice")
        out[key] = int(value) if value.lstrip("-").isdigit() else value
    return out


def parse_order(text: str) -> tuple[str, dict]:
    """``NAME[:K=V,...]``, checked against the order registry (name and parameters), or
    ``auto``: the GEMMs' default, the L2 model's pick for each shape."""
    from swizzlekit.cta import order

    name, _, rest = text.partition(":")
    params = order_params([p for p in rest.split(",") if p])
    if name == "auto":
        if params:
            raise SwizzleKitError("--order auto takes no parameters; name an order to give it "
                                  "some (e.g. grouped:group=8)")
        return name, params
    order(name, 2, 2, **params)            # raises, listing the valid names or parameters
    return name, params


def need_gpu(what: str) -> None:
    """A ToolError (exit 1) unless torch sees a CUDA GPU."""
    from swizzlekit.lab.harness import has_cuda_gpu

    if not has_cuda_gpu():
        raise ToolError(f"{what} needs torch with a CUDA GPU; none here")
