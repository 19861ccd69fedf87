"""CTA orders: which output tile the i-th launched CTA computes.

An order is a numpy array of shape ``(tiles_m * tiles_n, 2)``; row ``i`` is ``(pid_m, pid_n)``.
Orders live in a registry of names (:data:`ORDERS`); :func:`order` checks the name and the
parameters and lists the valid ones when they are wrong.

>>> order("grouped", 4, 3, group=2)[:4].tolist()
[[0, 0], [1, 0], [0, 1], [1, 1]]
>>> sorted(ORDERS)[:4]
['col', 'cutlass', 'grouped', 'grouped_persistent']
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from swizzlekit.errors import SwizzleKitError, check_int

__all__ = ["ORDERS", "OrderSpec", "order", "check_order", "MAX_TILES", "wave_tile_loads", "persistent_schedule",
           "seed001_get_swizzle_idx"]


def _row(tm: int, tn: int) -> np.ndarray:
    """Row-major: consecutive CTAs walk along N."""
    pid = np.arange(tm * tn)
    return np.stack([pid // tn, pid % tn], axis=1)


def _col(tm: int, tn: int) -> np.ndarray:
    """Column-major: consecutive CTAs walk down M."""
    pid = np.arange(tm * tn)
    return np.stack([pid % tm, pid // tm], axis=1)


def _grouped_mn(tm: int, tn: int, group: int, legacy: bool) -> np.ndarray:
    pid = np.arange(tm * tn)
    in_group = group * tn
    first = (pid // in_group) * group
    size = np.minimum(tm - first, group)
    # current tutorial: (pid % in_group) % size; persistent tutorial (and seed 003): pid % size
    pid_m = first + ((pid if legacy else pid % in_group) % size)
    pid_n = (pid % in_group) // size
    return np.stack([pid_m, pid_n], axis=1)


def _grouped(tm: int, tn: int, group: int = 8, along: str = "m") -> np.ndarray:
    """Triton's matmul tutorial (``GROUP_SIZE_M``): ``group`` rows of tiles, column-major
    inside the group. ``along="n"`` is its twin with the roles of M and N swapped. Equal to
    ``tl.swizzle2d(pid_m, pid_n, tiles_m, tiles_n, group)``."""
    if along == "m":
        return _grouped_mn(tm, tn, group, legacy=False)
    return _grouped_mn(tn, tm, group, legacy=False)[:, ::-1]


def _grouped_persistent(tm: int, tn: int, group: int = 8) -> np.ndarray:
    """The persistent-matmul tutorial's ``_compute_pid`` (and seed 003's code):
    ``pid_m = first + tile_id % group_size_m``. It differs from ``grouped`` only in a last,
    short group, whose rows it rotates."""
    return _grouped_mn(tm, tn, group, legacy=True)


def seed001_get_swizzle_idx(tm: int, tn: int, width: int, fixed: bool = True) -> np.ndarray:
    """Seed 001's ``get_swizzle_idx`` on a ``gridDim = (tn, tm)`` launch, lane by lane.

    The seed divides ``strip_flat_idx`` by ``gridDim.y`` to get the row; that is right only on
    square grids. ``fixed=True`` divides by ``gridDim.x``.
    """
    tm, tn = check_int("tm", tm), check_int("tn", tn)
    width = check_int("width", width, 1, MAX_TILES)
    if not isinstance(fixed, (bool, np.bool_)):
        raise SwizzleKitError(f"fixed must be True or False; got {fixed!r}")
    _check_grid(tm, tn)
    gx, gy = tn, tm
    idx = np.arange(gx * gy)
    per_strip = width * gy
    strips = gx // width
    residual = gx % width
    strip_id = idx // per_strip
    in_strip = idx % per_strip
    use = np.where(idx < per_strip * strips, width, max(residual, 1))
    flat = strip_id * width + (in_strip // use) * gx + in_strip % use
    x = flat % gx
    y = flat // gx if fixed else flat // gy
    return np.stack([y, x], axis=1)


def _strip(tm: int, tn: int, width: int = 4) -> np.ndarray:
    """Seed 001 / "Locality-Aware CTA Scheduling": strips ``width`` tile-columns wide,
    row-major inside a strip, a narrower last strip; the seed's slip fixed."""
    return seed001_get_swizzle_idx(tm, tn, width, fixed=True)


def _strip_snake(tm: int, tn: int, width: int = 4) -> np.ndarray:
    """Strips as in ``strip``, walked as a snake: every other strip runs bottom to top."""
    out = []
    for s, c0 in enumerate(range(0, tn, width)):
        w = min(width, tn - c0)
        rows = range(tm) if s % 2 == 0 else range(tm - 1, -1, -1)
        out += [(r, c0 + c) for r in rows for c in range(w)]
    return np.array(out)


def _snake(tm: int, tn: int) -> np.ndarray:
    """Boustrophedon: row-major, every other row right to left."""
    out = _row(tm, tn)
    odd = out[:, 0] % 2 == 1
    out[odd, 1] = tn - 1 - out[odd, 1]
    return out


def _interleave(v: np.ndarray, bits: int) -> np.ndarray:
    out = np.zeros_like(v)
    for b in range(bits):
        out |= ((v >> b) & 1) << (2 * b)
    return out


def _morton(tm: int, tn: int) -> np.ndarray:
    """Z-order (the seed's "return-to-start"): tiles sorted by interleaved bits of (m, n)."""
    bits = max(tm - 1, tn - 1, 1).bit_length()
    grid = _row(tm, tn)
    code = (_interleave(grid[:, 0], bits) << 1) | _interleave(grid[:, 1], bits)
    return grid[np.argsort(code, kind="stable")]


def _hilbert_d(n: int, m: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Distance along the Hilbert curve of an n x n square (n a power of two)."""
    d = np.zeros_like(m)
    x, y = c.copy(), m.copy()
    s = n // 2
    while s > 0:
        rx = ((x & s) > 0).astype(np.int64)
        ry = ((y & s) > 0).astype(np.int64)
        d += s * s * ((3 * rx) ^ ry)
        # rotate the quadrant so the sub-curve starts where the parent expects
        flip = ry == 0
        swap_back = flip & (rx == 1)
        x = np.where(swap_back, s - 1 - x, x)
        y = np.where(swap_back, s - 1 - y, y)
        x, y = np.where(flip, y, x), np.where(flip, x, y)
        s //= 2
    return d


def _hilbert(tm: int, tn: int) -> np.ndarray:
    """A Hilbert curve over the enclosing power-of-two square, keeping the tiles inside the
    grid in curve order: any rectangle, with the curve's locality where the grid is full."""
    n = 1 << max(tm - 1, tn - 1, 1).bit_length()
    grid = _row(tm, tn)
    return grid[np.argsort(_hilbert_d(n, grid[:, 0], grid[:, 1]), kind="stable")]


def _cutlass(tm: int, tn: int, log_tile: int = 1, raster: str = "m") -> np.ndarray:
    """CUTLASS's ``GemmIdentityThreadblockSwizzle<1 << log_tile>``: a grid of
    ``(tiles_m << log_tile, ceil(tiles_n >> log_tile))`` whose CTA ``(bx, by)`` computes
    ``(bx >> L, (by << L) + (bx & (2^L - 1)))``: panels of 2^L tile-columns walked down M.
    ``raster="n"`` swaps the roles (panels of 2^L tile-rows walked along N). Out-of-range
    CTAs exit at once and are left out."""
    if raster == "n":
        return _cutlass(tn, tm, log_tile, "m")[:, ::-1]
    size = 1 << log_tile
    gx, gy = tm * size, -(-tn // size)
    pid = np.arange(gx * gy)
    bx, by = pid % gx, pid // gx
    m, n = bx >> log_tile, (by << log_tile) + (bx & (size - 1))
    keep = n < tn
    return np.stack([m[keep], n[keep]], axis=1)


def _zlayer(tm: int, tn: int, layers: int = 2) -> np.ndarray:
    """Seed 002's block swizzle: ``grid = (ceil(tiles_n / layers), tiles_m, layers)``, CTA
    ``(x, y, z)`` computing tile ``(y, z * gridDim.x + x)``; launched x fastest, then y, z."""
    gx = -(-tn // layers)
    pid = np.arange(gx * tm * layers)
    x, y, z = pid % gx, (pid // gx) % tm, pid // (gx * tm)
    n = z * gx + x
    keep = n < tn
    return np.stack([y[keep], n[keep]], axis=1)


@dataclass(frozen=True)
class OrderSpec:
    name: str
    build: Callable[..., np.ndarray]
    params: dict[str, object]
    doc: str


def _spec(name: str, fn: Callable[..., np.ndarray]) -> OrderSpec:
    sig = inspect.signature(fn)
    params = {k: p.default for k, p in list(sig.parameters.items())[2:]}
    return OrderSpec(name, fn, params, (fn.__doc__ or "").strip().split("\n\n")[0])


#: Every order by name, with its parameters and their defaults.
ORDERS: dict[str, OrderSpec] = {s.name: s for s in [
    _spec("row", _row), _spec("col", _col), _spec("grouped", _grouped),
    _spec("grouped_persistent", _grouped_persistent), _spec("strip", _strip),
    _spec("strip_snake", _strip_snake), _spec("snake", _snake), _spec("morton", _morton),
    _spec("hilbert", _hilbert), _spec("cutlass", _cutlass), _spec("zlayer", _zlayer)]}

_CHOICES = {"along": ("m", "n"), "raster": ("m", "n")}
#: The largest tile grid an order is built for: 2^22 tiles (a 2048x2048 grid, 64 MiB of int64
#: pairs). Past that a caller has almost surely passed elements where tiles were meant.
MAX_TILES = 2**22


def _check_grid(tiles_m: int, tiles_n: int) -> None:
    if tiles_m * tiles_n > MAX_TILES:
        raise SwizzleKitError(f"a {tiles_m}x{tiles_n} tile grid has {tiles_m * tiles_n} tiles; "
                              f"orders are built for at most {MAX_TILES} (2^22)")


def _any_order(order_) -> np.ndarray:
    """An order of :func:`order` or :func:`check_order`'s form on the grid it spans."""
    if not isinstance(order_, np.ndarray) or order_.ndim != 2 or order_.shape[1:] != (2,) \
            or not np.issubdtype(order_.dtype, np.integer) or len(order_) == 0:
        raise SwizzleKitError("the order must be a non-empty (tiles, 2) integer array, as "
                              "swizzlekit.cta.order builds")
    if order_.min() < 0:
        raise SwizzleKitError("the order has a negative tile coordinate")
    tiles_m, tiles_n = (int(v) + 1 for v in order_.max(axis=0))
    return check_order(order_, tiles_m, tiles_n)


def check_order(order_: np.ndarray, tiles_m: int, tiles_n: int) -> np.ndarray:
    """``order_`` as an int64 ``(tiles, 2)`` array that visits every tile of the grid once.

    >>> check_order(np.array([[0, 0], [0, 0]]), 1, 2)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: the order is not a bijection onto the 1x2 tile grid: tile (0, 0) appears 2 times and 1 tiles are missing
    """
    tiles_m, tiles_n = check_int("tiles_m", tiles_m), check_int("tiles_n", tiles_n)
    _check_grid(tiles_m, tiles_n)
    if not isinstance(order_, (np.ndarray, list, tuple)):
        raise SwizzleKitError(f"the order must be a (tiles, 2) array of tile coordinates; got "
                              f"{type(order_).__name__}")
    try:
        arr = np.asarray(order_)
    except ValueError:
        raise SwizzleKitError("the order must be a (tiles, 2) array of tile coordinates; got "
                              "ragged rows") from None
    if arr.ndim != 2 or arr.shape != (tiles_m * tiles_n, 2):
        raise SwizzleKitError(f"the order has shape {arr.shape}; a {tiles_m}x{tiles_n} tile grid "
                              f"needs ({tiles_m * tiles_n}, 2)")
    if not np.issubdtype(arr.dtype, np.integer):
        raise SwizzleKitError(f"the order must hold integer tile coordinates; got {arr.dtype}")
    arr = arr.astype(np.int64)
    inside = ((arr[:, 0] >= 0) & (arr[:, 0] < tiles_m) & (arr[:, 1] >= 0)
              & (arr[:, 1] < tiles_n))
    if not inside.all():
        bad = arr[np.argmin(inside)]
        raise SwizzleKitError(f"the order leaves the {tiles_m}x{tiles_n} tile grid at tile "
                              f"({bad[0]}, {bad[1]})")
    counts = np.bincount(arr[:, 0] * tiles_n + arr[:, 1], minlength=tiles_m * tiles_n)
    if (counts != 1).any():
        dup = int(np.argmax(counts))
        raise SwizzleKitError(f"the order is not a bijection onto the {tiles_m}x{tiles_n} tile "
                              f"grid: tile ({dup // tiles_n}, {dup % tiles_n}) appears "
                              f"{counts[dup]} times and {(counts == 0).sum()} tiles are missing")
    return arr


def order(name: str, tiles_m: int, tiles_n: int, **params) -> np.ndarray:
    """The order ``name`` on a ``tiles_m x tiles_n`` grid, shape ``(tiles_m * tiles_n, 2)``.

    >>> order("strip", 2, 3, width=2).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1], [0, 2], [1, 2]]
    """
    if not isinstance(name, str) or name not in ORDERS:
        raise SwizzleKitError(f"unknown order {name!r}; valid orders: " + ", ".join(ORDERS))
    spec = ORDERS[name]
    for key, value in params.items():
        if key not in spec.params:
            valid = ", ".join(spec.params) or "none"
            raise SwizzleKitError(f"order {name!r} has no parameter {key!r}; its parameters: "
                                  f"{valid}")
        if key in _CHOICES:
            if value not in _CHOICES[key]:
                raise SwizzleKitError(f"order {name!r}: {key}={value!r} is not valid; choose "
                                      f"one of: {', '.join(_CHOICES[key])}")
        elif (isinstance(value, bool) or not isinstance(value, (int, np.integer))
              or value < (0 if key == "log_tile" else 1)):
            raise SwizzleKitError(f"order {name!r}: {key}={value!r} must be a positive integer")
        elif value > (20 if key == "log_tile" else MAX_TILES):
            raise SwizzleKitError(f"order {name!r}: {key}={value} is past any tile grid an "
                                  f"order is built for ({MAX_TILES} tiles)")
    tiles_m, tiles_n = check_int("tiles_m", tiles_m), check_int("tiles_n", tiles_n)
    _check_grid(tiles_m, tiles_n)
    out = np.asarray(spec.build(int(tiles_m), int(tiles_n), **params), dtype=np.int64)
    return out.reshape(-1, 2)


def wave_tile_loads(order_: np.ndarray, tiles_k: int, concurrent: int) -> list[int]:
    """Seed 003's count: cut the order into waves of ``concurrent`` CTAs; each wave loads every
    distinct A tile-row and B tile-column it touches once per K step (reuse inside a wave,
    none across waves).

    >>> wave_tile_loads(order("row", 9, 9), 9, 9)[0], wave_tile_loads(order("grouped", 9, 9, group=3), 9, 9)[0]
    (90, 54)
    """
    order_ = _any_order(order_)
    tiles_k = check_int("tiles_k", tiles_k, 1, 2**31)
    concurrent = check_int("concurrent", concurrent, 1, MAX_TILES)
    loads = []
    for start in range(0, len(order_), concurrent):
        wave = order_[start:start + concurrent]
        loads.append(int((np.unique(wave[:, 0]).size + np.unique(wave[:, 1]).size) * tiles_k))
    return loads


def persistent_schedule(order_: np.ndarray, num_ctas: int) -> list[np.ndarray]:
    """A persistent grid: CTA ``c`` computes tiles ``c, c + num_ctas, ...`` of the order."""
    order_ = _any_order(order_)
    num_ctas = check_int("num_ctas", num_ctas, 1, MAX_TILES)
    return [order_[c::num_ctas] for c in range(min(num_ctas, len(order_)))]
