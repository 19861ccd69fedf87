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

__all__ = ["SwizzleKitError", "ToolError", "check_bool", "check_choice", "check_int",
           "check_number", "check_ints", "one_line", "MESSAGE_LIMIT"]

T = TypeVar("T")

#: The most characters an error message has; longer values in it are elided.
MESSAGE_LIMIT = 300
_WORD_LIMIT = 60


def one_line(text, limit: int = MESSAGE_LIMIT) -> str:
    r"""``text`` on one line of at most ``limit`` characters: runs of whitespace become one
    space, each word longer than 60 characters keeps its ends around the count it drops, and
    what is still too long is cut with an ellipsis.

    >>> one_line("bad access 'row,row,row'\n  here")
    "bad access 'row,row,row' here"
    >>> one_line("value " + "x" * 1000)
    'value xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…[950 more]…xxxxxxxxxx'
    >>> len(one_line("word " * 100))
    300
    """
    words = []
    for word in str(text).split():
        if len(word) > _WORD_LIMIT:
            word = f"{word[:40]}…[{len(word) - 50} more]…{word[-10:]}"
        words.append(word)
    line = " ".join(words)
    return line if len(line) <= limit else line[:limit - 1] + "…"


class SwizzleKitError(ValueError):
    """Bad input or an unmet precondition. The message names the problem in one line of at
    most :data:`MESSAGE_LIMIT` characters (:func:`one_line`)."""

    def __init__(self, message="") -> None:
        super().__init__(one_line(message))


class ToolError(RuntimeError):
    """A machine or tool failure (no GPU, a profiler or compiler that failed). One line, as
    :class:`SwizzleKitError`'s."""

    def __init__(self, message="") -> None:
        super().__init__(one_line(message))


def check_choice(what: str, value: T, choices: Iterable[T]) -> T:
    """Return ``value`` if it is one of ``choices``; otherwise raise listing the valid ones.
    Where the choices are integers, ``value`` must be an integer too (a numpy one is, and comes
    back as a Python int; ``4.0`` and ``True`` are not).

    >>> check_choice("width", 4.0, (4, 8, 16))
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: width 4.0 is not valid; choose one of: 4, 8, 16
    """
    import numbers

    options = list(choices)
    ints = options and all(isinstance(c, int) and not isinstance(c, bool) for c in options)
    ok = False
    if not ints or (isinstance(value, numbers.Integral) and not isinstance(value, bool)):
        try:
            ok = any(value == c and type(value) is not bool for c in options)
        except Exception:                # arrays and other values without a plain ==
            ok = False
    if not ok:
        listed = ", ".join(str(c) for c in options)
        raise SwizzleKitError(f"{what} {value!r} is not valid; choose one of: {listed}")
    return int(value) if ints else value


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


def check_bool(what: str, value) -> bool:
    """``value`` where it is True or False (not 0, 1 or a string).

    >>> check_bool("persistent", False)
    False
    >>> check_bool("persistent", 1)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: persistent must be True or False; got 1
    """
    if not isinstance(value, bool):
        raise SwizzleKitError(f"{what} must be True or False; got {value!r}")
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


def check_ints(what: str, values, count: int, lo: int | None = 1,
               hi: int | None = None) -> tuple[int, ...]:
    """A tuple of ``count`` integers, each in ``[lo, hi]`` (``tile``, ``shape``, ...)."""
    try:
        items = tuple(values)
    except TypeError:
        raise SwizzleKitError(f"{what} must be {count} integers; got {values!r}") from None
    if len(items) != count:
        raise SwizzleKitError(f"{what} must be {count} integers; got {len(items)}: {values!r}")
    return tuple(check_int(f"{what}[{i}]", v, lo, hi) for i, v in enumerate(items))
