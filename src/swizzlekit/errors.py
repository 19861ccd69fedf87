"""swizzlekit's two exception types, and the checks every public function runs at the door.

* :class:`SwizzleKitError`: bad input or an unmet precondition. The CLI prints its one-line
  message and exits 2.
* :class:`ToolError`: the machine or a tool failed (no GPU, Nsight Compute missing or
  refusing, a compiler error in our own kernels). The CLI prints one line and exits 1.

>>> try:
...     check_choice("access width", 12, (4, 8, 16))
... except SwizzleKitError as e:
...     print(e)
access width 12 is not valid; choose one of: 4, 8, 16
>>> import numpy as np
>>> check_int("rows", np.int64(8))
8
>>> check_int("rows", 8.0)
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: rows must be an integer; got 8.0 (float)
>>> check_int("K", -64)
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: K must be at least 1; got -64
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

__all__ = ["SwizzleKitError", "ToolError", "check_choice", "check_int", "check_number",
           "check_ints"]

T = TypeVar("T")


class SwizzleKitError(ValueError):
    """Bad input or an unmet precondition. The message names the problem in one line."""


class ToolError(RuntimeError):
    """A machine or tool failure (no GPU, a profiler or compiler that failed). One line."""


def check_choice(what: str, value: T, choices: Iterable[T]) -> T:
    """Return ``value`` if it is one of ``choices``; otherwise raise listing the valid ones."""
    options = list(choices)
    if value not in options:
        listed = ", ".join(str(c) for c in options)
        raise SwizzleKitError(f"{what} {value!r} is not valid; choose one of: {listed}")
    return value


def check_int(what: str, value, lo: int | None = 1, hi: int | None = None) -> int:
    """``value`` as a Python int in ``[lo, hi]``. numpy integers are integers; bools, floats
    and strings are not."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SwizzleKitError(f"{what} must be an integer; got {value!r} "
                              f"({type(value).__name__})")
    value = int(value)
    if lo is not None and value < lo:
        raise SwizzleKitError(f"{what} must be at least {lo}; got {value}")
    if hi is not None and value > hi:
        raise SwizzleKitError(f"{what} must be at most {hi}; got {value}")
    return value


def check_number(what: str, value, lo: float, hi: float) -> float:
    """``value`` (an int or float, not a bool) as a float in ``[lo, hi]``.

    >>> check_number("spread", 0.3, 0, 1)
    0.3
    >>> check_number("spread", True, 0, 1)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: spread must be a number from 0 to 1; got True
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise SwizzleKitError(f"{what} must be a number from {lo:g} to {hi:g}; got {value!r}")
    return float(value)


def check_ints(what: str, values, count: int, lo: int | None = 1) -> tuple[int, ...]:
    """A tuple of ``count`` integers, each at least ``lo`` (``tile``, ``shape``, ...)."""
    try:
        items = tuple(values)
    except TypeError:
        raise SwizzleKitError(f"{what} must be {count} integers; got {values!r}") from None
    if len(items) != count:
        raise SwizzleKitError(f"{what} must be {count} integers; got {len(items)}: {values!r}")
    return tuple(check_int(f"{what}[{i}]", v, lo) for i, v in enumerate(items))
