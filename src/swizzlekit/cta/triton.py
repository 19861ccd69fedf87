"""CTA orders as ``@triton.jit`` functions, to call from your own Triton kernels.

Each takes the program id and the tile grid and returns ``(pid_m, pid_n)``, exactly as
:func:`swizzlekit.cta.order` with the same name (the tests compare them tile by tile in
Triton's interpreter)::

    from swizzlekit.cta.triton import grouped

    @triton.jit
    def kernel(..., GROUP: tl.constexpr):
        pid_m, pid_n = grouped(tl.program_id(0), tl.cdiv(M, BM), tl.cdiv(N, BN), GROUP)

Orders here: ``row``, ``col``, ``grouped`` (along M), ``grouped_n`` (its twin along N),
``grouped_persistent``, ``strip``, ``snake``. This module imports triton; ``swizzlekit.cta``
itself does not.
"""

import triton
import triton.language as tl

__all__ = ["row", "col", "grouped", "grouped_n", "grouped_persistent", "strip", "snake"]


@triton.jit
def row(pid, tiles_m, tiles_n):
    return pid // tiles_n, pid % tiles_n


@triton.jit
def col(pid, tiles_m, tiles_n):
    return pid % tiles_m, pid // tiles_m


@triton.jit
def grouped(pid, tiles_m, tiles_n, GROUP: tl.constexpr):
    in_group = GROUP * tiles_n
    first = (pid // in_group) * GROUP
    size = tl.minimum(tiles_m - first, GROUP)
    return first + (pid % in_group) % size, (pid % in_group) // size


@triton.jit
def grouped_n(pid, tiles_m, tiles_n, GROUP: tl.constexpr):
    in_group = GROUP * tiles_m
    first = (pid // in_group) * GROUP
    size = tl.minimum(tiles_n - first, GROUP)
    return (pid % in_group) // size, first + (pid % in_group) % size


@triton.jit
def grouped_persistent(pid, tiles_m, tiles_n, GROUP: tl.constexpr):
    in_group = GROUP * tiles_n
    first = (pid // in_group) * GROUP
    size = tl.minimum(tiles_m - first, GROUP)
    return first + pid % size, (pid % in_group) // size


@triton.jit
def strip(pid, tiles_m, tiles_n, WIDTH: tl.constexpr):
    per_strip = WIDTH * tiles_m
    strips = tiles_n // WIDTH
    residual = tiles_n % WIDTH
    strip_id = pid // per_strip
    in_strip = pid % per_strip
    use = tl.where(pid < per_strip * strips, WIDTH, tl.maximum(residual, 1))
    flat = strip_id * WIDTH + (in_strip // use) * tiles_n + in_strip % use
    return flat // tiles_n, flat % tiles_n


@triton.jit
def snake(pid, tiles_m, tiles_n):
    m = pid // tiles_n
    n = pid % tiles_n
    return m, tl.where(m % 2 == 1, tiles_n - 1 - n, n)
