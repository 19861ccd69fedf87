"""CTA orders as ``@triton.jit`` functions, to call from your own Triton kernels.

Each takes the program id and the tile grid and returns ``(pid_m, pid_n)``, exactly as
:func:`swizzlekit.cta.order` with the same name (the tests compare them tile by tile in
Triton's interpreter)::

    from swizzlekit.cta.triton import grouped

    @triton.jit
    def kernel(..., GROUP: tl.constexpr):
        pid_m, pid_n = grouped(tl.program_id(0), tl.cdiv(M, BM), tl.cdiv(N, BN), GROUP)

Orders here: ``row``, ``col``, ``grouped`` (along M), ``grouped_n`` (its twin along N),
``grouped_persistent``, ``strip``, ``strip_snake``, ``snake``; ``cutlass`` and ``zlayer`` take
the program id in their own launch grids (``cutlass_ctas``, ``zlayer_ctas`` in
:mod:`swizzlekit.cta.cuda`'s header; here compute the grid as the numpy docstrings say) and
return ``n >= tiles_n`` for programs that must exit; ``morton`` and ``hilbert`` map a square of
``2**log2`` tiles a side (launch that square over any grid and exit outside it: that is the
numpy order exactly). This module imports triton; ``swizzlekit.cta`` does not.
"""

import triton
import triton.language as tl

__all__ = ["row", "col", "grouped", "grouped_n", "grouped_persistent", "strip", "strip_snake",
           "snake", "cutlass", "zlayer", "morton", "hilbert"]


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


@triton.jit
def strip_snake(pid, tiles_m, tiles_n, WIDTH: tl.constexpr):
    strip_id = pid // (WIDTH * tiles_m)
    in_strip = pid - strip_id * WIDTH * tiles_m
    use = tl.minimum(tiles_n - strip_id * WIDTH, WIDTH)
    r = in_strip // use
    c = in_strip % use
    return tl.where(strip_id % 2 == 1, tiles_m - 1 - r, r), strip_id * WIDTH + c


@triton.jit
def cutlass(pid, tiles_m, tiles_n, LOG_TILE: tl.constexpr):
    gx = tiles_m << LOG_TILE
    bx = pid % gx
    by = pid // gx
    return bx >> LOG_TILE, (by << LOG_TILE) + (bx & ((1 << LOG_TILE) - 1))


@triton.jit
def zlayer(pid, tiles_m, tiles_n, LAYERS: tl.constexpr):
    gx = (tiles_n + LAYERS - 1) // LAYERS
    x = pid % gx
    y = (pid // gx) % tiles_m
    z = pid // (gx * tiles_m)
    return y, z * gx + x


@triton.jit
def morton(pid, log2):
    m = pid * 0
    n = pid * 0
    for b in range(log2):
        n |= ((pid >> (2 * b)) & 1) << b
        m |= ((pid >> (2 * b + 1)) & 1) << b
    return m, n


@triton.jit
def hilbert(pid, log2):
    x = pid * 0
    y = pid * 0
    t = pid
    for i in range(log2):
        s = 1 << i
        rx = 1 & (t // 2)
        ry = 1 & (t ^ rx)
        flip = (ry == 0) & (rx == 1)
        x = tl.where(flip, s - 1 - x, x)
        y = tl.where(flip, s - 1 - y, y)
        swap = ry == 0
        x, y = tl.where(swap, y, x), tl.where(swap, x, y)
        x += s * rx
        y += s * ry
        t = t // 4
    return y, x
