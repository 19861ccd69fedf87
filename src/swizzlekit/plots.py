"""Pictures: shared-memory bank maps (before and after a swizzle), CTA order maps, and
benchmark charts.

matplotlib is imported when a picture is drawn, with the non-interactive Agg backend.
Each cell of a bank map is one tile element, colored by the bank (or, for elements of 8 or
16 bytes, the group of banks) it is stored in and labelled with that number; the elements
that one access fetches are outlined, and the panel's title gives its wavefronts.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from swizzlekit.smem.access import WAVEFRONT_BYTES, AccessSpec, parse_access
from swizzlekit.smem.analyze import placement_index, set_costs

__all__ = ["bank_groups", "worst_placement", "bank_map", "save_bank_maps", "save_order_map",
           "benchmark_chart", "parity_plot", "min_font_px", "DPI"]


def bank_groups(layout, elem_bytes: int) -> np.ndarray:
    """Per element, the bank (elements of <= 4 bytes) or bank group (8/16-byte elements)."""
    unit = max(elem_bytes, 4)
    return (layout.offsets() * elem_bytes // unit) % (WAVEFRONT_BYTES // unit)


def worst_placement(layout, spec: str | AccessSpec, elem_bytes: int) -> tuple[np.ndarray, int]:
    """The placement of ``spec`` with the most wavefronts under ``layout``, and that count."""
    spec = parse_access(spec) if isinstance(spec, str) else spec
    places = spec.placements(layout.rows, layout.cols, elem_bytes)
    wf, _ = set_costs(layout.offsets(), placement_index(places, layout.cols), elem_bytes)
    i = int(np.argmax(wf))
    return places[i], int(wf[i])


def bank_map(ax, layout, elem_bytes: int, highlight: np.ndarray | None = None,
             title: str = "", max_rows: int = 16, max_cols: int = 32) -> None:
    """Draw one bank map on a matplotlib axis."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    groups = bank_groups(layout, elem_bytes)[:max_rows, :max_cols]
    n = WAVEFRONT_BYTES // max(elem_bytes, 4)
    # distinct, non-cyclic colours: bank 0 and bank 31 must not look alike
    palette = plt.get_cmap("tab20b").colors + plt.get_cmap("tab20c").colors
    cmap = ListedColormap(palette[:n])
    ax.imshow(groups, cmap=cmap, vmin=-0.5, vmax=n - 0.5, aspect="equal")
    rows, cols = groups.shape
    if rows * cols <= 512:      # numbers only where they stay legible
        size = 7.5 if cols <= 16 else 6.6        # at least 10 px at DPI
        for r in range(rows):
            for c in range(cols):
                ax.text(c, r, str(groups[r, c]), ha="center", va="center", fontsize=size,
                        color="black")
    if highlight is not None:
        for r, c in highlight:
            if r < rows and c < cols:
                ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, lw=2.2,
                                           edgecolor="black"))
    ax.set_xticks(range(0, cols, max(1, cols // 8)))
    ax.set_yticks(range(0, rows, max(1, rows // 8)))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    shown = "" if (rows, cols) == layout.offsets().shape else f"\n(first {rows}x{cols} shown)"
    ax.set_title(title + shown, fontsize=9)


def _figure(*args, **kwargs):
    """A matplotlib figure on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(*args, **kwargs)


#: Pixels per inch of every saved picture.
DPI = 110
#: The widest picture drawn for a page (inches): 9.6 in at :data:`DPI` is 1056 px, what the
#: report's column holds at a 1400-pixel window, so it is shown at its own size.
MAX_WIDTH_IN = 9.6


def min_font_px(fig, dpi: float = DPI) -> float:
    """The smallest visible text of ``fig`` in pixels at ``dpi``: what a page that shows the
    picture at its own size shows it at (the report's browser test scales it)."""
    from matplotlib.text import Text

    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    return round(min(sizes) * dpi / 72, 2) if sizes else 0.0


def _save(fig, path: str | Path, rect: tuple = (0, 0, 1, 1)) -> Path:
    """Save ``fig`` as a PNG that records its smallest text (``min_font_px``)."""
    import matplotlib.pyplot as plt

    fig.tight_layout(rect=rect)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, metadata={"min_font_px": str(min_font_px(fig))})
    plt.close(fig)
    return path


def save_bank_maps(path: str | Path, panels: Sequence[tuple], elem_bytes: int,
                   suptitle: str = "") -> Path:
    """Save side-by-side bank maps: ``panels`` holds (layout, access spec or None, title)."""
    rows = min(16, panels[0][0].rows)
    cols = min(32, panels[0][0].cols)
    panel = max(4.6, 0.4 * cols + 2) if cols <= 16 else 0.25 * cols + 1.5
    if panel * len(panels) <= MAX_WIDTH_IN:      # side by side where they fit, else stacked
        fig, axes = _figure(1, len(panels), squeeze=False,
                            figsize=(panel * len(panels), 0.4 * rows + 2.9))
    else:
        cell = 0.4 if cols <= 16 else 0.25
        fig, axes = _figure(len(panels), 1, squeeze=False,
                            figsize=(panel, (cell * rows + 1.9) * len(panels) + 0.4))
    for ax, (layout, spec, title) in zip(axes.reshape(-1), panels):
        highlight = None
        if spec is not None:
            highlight, wf = worst_placement(layout, spec, elem_bytes)
            title = f"{title}\n{spec}: {wf} wavefront{'s' if wf != 1 else ''} (worst placement)"
        bank_map(ax, layout, elem_bytes, highlight, title)
    fig.suptitle("\n".join(filter(None, (suptitle, bank_legend(elem_bytes)))), fontsize=9)
    return _save(fig, path)


def bank_legend(elem_bytes: int) -> str:
    """What a bank map's colours and numbers mean, for ``elem_bytes``-byte elements.

    >>> bank_legend(16)
    'colour and number: the 16-byte bank group (of 8) of each element; outlined: the worst placement'
    """
    unit = max(elem_bytes, 4)
    what = "bank (of 32)" if unit == 4 else f"{unit}-byte bank group (of {WAVEFRONT_BYTES // unit})"
    return f"colour and number: the {what} of each element; outlined: the worst placement"


def save_order_map(path: str | Path, order: np.ndarray, tiles_m: int, tiles_n: int,
                   concurrent: int, title: str = "", waves: int = 3) -> Path:
    """A heatmap of the launch order over the tile grid, then one panel per wave (the first
    ``waves``) marking the tiles it computes and the A tile-rows and B tile-columns it reads."""
    rank = np.empty((tiles_m, tiles_n), dtype=np.int64)
    rank[order[:, 0], order[:, 1]] = np.arange(len(order))
    shown = min(waves, -(-len(order) // concurrent))
    # the launch order and up to three waves, two panels a row: 9.2 in, within MAX_WIDTH_IN
    cols = 1 if shown == 0 else 2
    rows = -(-(1 + shown) // cols)
    fig, axes = _figure(rows, cols, figsize=(4.6 * cols, 4.4 * rows + 0.4), squeeze=False)
    axes = axes.reshape(1, -1)
    for extra in axes[0, 1 + shown:]:
        extra.set_visible(False)
    axes = axes[:, :1 + shown]
    ax = axes[0, 0]
    im = ax.imshow(rank, cmap="viridis", aspect="equal")
    if tiles_m * tiles_n <= 400:
        for (m, n), v in np.ndenumerate(rank):
            ax.text(n, m, str(v), ha="center", va="center", fontsize=7, color="white")
    fig.colorbar(im, ax=ax, fraction=0.046, label="launch index")
    ax.set_title(f"{title}\nlaunch order", fontsize=9)
    for w in range(shown):
        wave = order[w * concurrent:(w + 1) * concurrent]
        grid = np.zeros((tiles_m, tiles_n))
        grid[np.unique(wave[:, 0]), :] += 1          # A tile-rows read
        grid[:, np.unique(wave[:, 1])] += 1          # B tile-columns read
        grid[wave[:, 0], wave[:, 1]] = 3             # tiles computed
        a = axes[0, 1 + w]
        a.imshow(grid, cmap="Blues", vmin=0, vmax=3, aspect="equal")
        a.set_title(f"wave {w}: {len(wave)} CTAs\n{np.unique(wave[:, 0]).size} A tile-rows, "
                    f"{np.unique(wave[:, 1]).size} B tile-columns", fontsize=9)
    for a in axes[0]:
        a.set_xlabel("pid_n (tile column)")
        a.set_ylabel("pid_m (tile row)")
    if shown:
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch

        blues = plt.get_cmap("Blues")
        keys = [(3, "tile computed by the wave"), (2, "its A tile-row and B tile-column"),
                (1, "its A tile-row or B tile-column"), (0, "not read by the wave")]
        fig.legend(handles=[Patch(facecolor=blues(v / 3), edgecolor="#999", label=t)
                            for v, t in keys], loc="lower center", ncol=2, fontsize=8,
                   frameon=False)
        return _save(fig, path, rect=(0, 0.05, 1, 1))
    return _save(fig, path)


#: Markers cycled with the colours, so that series stay apart past twenty.
_MARKERS = "os^Dv<>ph*P"


def benchmark_chart(rows: Sequence, suite: str, precision: str, path: str | Path) -> Path:
    """TFLOP/s of every kernel (and order) on each shape of one suite and precision.

    Shapes sit on a categorical axis (``MxNxK``, smallest work first), so no two shapes share
    a position; the y axis starts at 0, so a gap of a few percent looks like one. ``rows`` are
    :class:`~swizzlekit.lab.records.BenchRow` (or dicts with the same keys).
    """
    import matplotlib.pyplot as plt

    get = (lambda r, k: r[k]) if rows and isinstance(rows[0], dict) else getattr
    sel = [r for r in rows if get(r, "suite") == suite and get(r, "precision") == precision]
    shapes = sorted({(int(get(r, "M")), int(get(r, "N")), int(get(r, "K"))) for r in sel},
                    key=lambda s: (s[0] * s[1] * s[2], s))
    pos = {s: i for i, s in enumerate(shapes)}
    series = sorted({(get(r, "kernel"), get(r, "order")) for r in sel},
                    key=lambda x: (x[0] != "cublas", x))
    colours = plt.get_cmap("tab10" if len(series) <= 10 else "tab20").colors
    fig, ax = _figure(figsize=(max(7.0, 0.9 * len(shapes) + 3), 4.6))
    for i, label in enumerate(series):
        pts = sorted((pos[(int(get(r, "M")), int(get(r, "N")), int(get(r, "K")))],
                      float(get(r, "tflops"))) for r in sel
                     if (get(r, "kernel"), get(r, "order")) == label)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=_MARKERS[i % len(_MARKERS)],
                color=colours[i % len(colours)], lw=1, ms=5,
                label=" ".join(x for x in label if x))
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels(["x".join(map(str, s)) for s in shapes], rotation=35, ha="right",
                       fontsize=8)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("GEMM shape M x N x K")
    ax.set_ylabel("TFLOP/s")
    ax.set_title(f"{suite}, {precision}: TFLOP/s per kernel (higher is better)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2 if len(series) > 8 else 1, loc="upper left",
              bbox_to_anchor=(1.01, 1.0))
    return _save(fig, path)


def parity_plot(path: str | Path, measured: Sequence[float], predicted: Sequence[float],
                groups: Sequence[str], title: str, unit: str = "%") -> Path:
    """Model against measurement: one point per run, coloured by ``groups``, with the
    diagonal of a perfect model. Both axes cover the same range."""
    import matplotlib.pyplot as plt

    fig, ax = _figure(figsize=(5.4, 5.0))
    names = sorted(set(groups))
    colours = plt.get_cmap("tab10").colors
    for i, g in enumerate(names):
        xs = [m for m, gg in zip(measured, groups) if gg == g]
        ys = [p for p, gg in zip(predicted, groups) if gg == g]
        ax.scatter(xs, ys, s=18, color=colours[i % 10], marker=_MARKERS[i % len(_MARKERS)],
                   label=g)
    lo = min([*measured, *predicted, 0.0])
    hi = max([*measured, *predicted]) * 1.03
    ax.plot([lo, hi], [lo, hi], color="#888", lw=1, ls="--", label="model = measured")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel(f"measured ({unit})")
    ax.set_ylabel(f"model ({unit})")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    return _save(fig, path)
