"""The one exception type swizzlekit raises for bad input, and a helper that lists choices.

>>> try:
...     check_choice("access width", 12, (4, 8, 16))
... except SwizzleKitError as e:
...     print(e)
access width 12 is not valid; choose one of: 4, 8, 16
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

__all__ = ["SwizzleKitError", "check_choice"]

T = TypeVar("T")


class SwizzleKitError(ValueError):
    """Bad input or an unmet precondition. The message names the problem in one line."""


def check_choice(what: str, value: T, choices: Iterable[T]) -> T:
    """Return ``value`` if it is one of ``choices``; otherwise raise listing the valid ones."""
    options = list(choices)
    if value not in options:
        listed = ", ".join(str(c) for c in options)
        raise SwizzleKitError(f"{what} {value!r} is not valid; choose one of: {listed}")
    return value
