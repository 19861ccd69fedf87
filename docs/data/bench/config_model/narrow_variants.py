"""The config model's narrow-load term against one variant, fitted on the fit half of
src/swizzlekit/data/tiles_h200.csv (CPU only; the output is narrow_variants.txt).

- per SM (the model): a step's narrow elements of the CTAs that share one SM, over
  ``narrow_rate`` elements/s per SM;
- per thread (tried): one CTA's narrow elements over its 32 x warps threads, over a rate per
  thread, with its own grid.

Adopted only if it lowers the fit half's mean log error; the held-out and fresh sets are
printed for the record.

    python docs/data/bench/config_model/narrow_variants.py > narrow_variants.txt
"""
from swizzlekit.kernels.triton import choose
from swizzlekit.lab import tile_fit

PER_SM = tile_fit.terms


def per_thread(M, N, K, fam, config, **kw):
    t = list(PER_SM(M, N, K, fam, config, **kw))
    bm, bn, bk, _, warps, _ = choose._parse(config)
    narrow = (bm * bk if kw.get("narrow_a") else 0) + (bn * bk if kw.get("narrow_b") else 0)
    t[4] = narrow / (32 * warps)
    return tuple(t)


GRIDS = {"per SM (the model)": (PER_SM, tile_fit.GRID),
         "per thread (tried)": (per_thread, dict(tile_fit.GRID, narrow_rate=(
             0.25e7, 0.5e7, 1e7, 2e7, 4e7, 8e7)))}

for name, (terms, grid) in GRIDS.items():
    tile_fit.terms, tile_fit.GRID = terms, grid
    p = tile_fit.fit()
    k = p["top_k"]
    print(f"{name}: narrow_rate {p['narrow_rate']:.3g}, top_k {k}, "
          f"fit-half log error {p['fit_log_error']}")
    for split in ("fit", "heldout", "fresh"):
        j = tile_fit.judge(p, split)
        narrow = [r for r in tile_fit._rows(tile_fit._problems(), split) if r[3][4] > 0]
        print(f"  {split:8s} top-{k}: {j[f'top{k}']['mean_pct']}% mean, "
              f"{j[f'top{k}']['worst_pct']}% worst, {j[f'top{k}']['within_1pct']:.1%} within 1%;"
              f" log error {j['log_error']}, on its {len(narrow)} narrow rows "
              f"{tile_fit._log_error(narrow, p):.3f}")
tile_fit.terms, tile_fit.GRID = PER_SM, GRIDS["per SM (the model)"][1]
