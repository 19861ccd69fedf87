"""Render the report's data as one self-contained HTML page (PNGs inlined as data URIs), from
the jinja2 template ``templates/report.html.j2`` with autoescaping on.

Each section is a ``<section id=...>``: ``smem``, ``cta``, ``kernels``, ``seeds``. Numbers are
printed from the data dict the JSON holds, so the page and the JSON never disagree. This
module only shapes that data into tables (``head``, ``rows``, right-aligned ``num`` columns)
and figures for the template.

>>> table(["a", "b"], [[1, "<x>"]])["rows"]
[[1, '<x>']]
>>> "&lt;x&gt;" in _env_jinja().from_string("{{ x }}").render(x="<x>")
True
"""

from __future__ import annotations

import base64
import functools
from pathlib import Path

__all__ = ["render", "table"]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2430;
background:#f6f7f9;line-height:1.4}
header{background:#1d2430;color:#fff;padding:12px 32px}header h1{margin:0 0 2px;font-size:21px}
header p{margin:1px 0;color:#c9d1dc;font-size:13px}nav{margin-top:4px;font-size:14px}
header a{color:#8cc4ff;text-decoration:none;font-weight:600}nav a{margin-right:18px}
main{max-width:1180px;margin:0 auto;padding:4px 32px 40px}
section{background:#fff;border-radius:8px;padding:6px 24px 18px;margin:14px 0;
box-shadow:0 1px 3px rgba(0,0,0,.08)}h2{border-bottom:2px solid #e3e7ed;padding-bottom:4px;
margin:10px 0 8px;font-size:20px}h3{margin:20px 0 6px;font-size:16px}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:8px 0;font-size:13px;width:100%}
th,td{border:1px solid #e3e7ed;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f0f3f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
code{background:#f0f3f7;padding:1px 4px;border-radius:3px;font-size:12px;overflow-wrap:anywhere}
.ok{color:#137333;font-weight:600}.bad{color:#b3261e;font-weight:600}
.label{display:inline-block;background:#fff4d6;border:1px solid #f0d58a;border-radius:4px;
padding:2px 8px;font-size:13px;margin:4px 0}
.figs{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
figure{margin:0;max-width:100%}figure img{max-width:100%;height:auto;border:1px solid #e3e7ed;
border-radius:4px;display:block}
figcaption{font-size:12px;color:#5b6675;max-width:100%}.muted{color:#5b6675;font-size:13px}
details{margin:8px 0}summary{cursor:pointer;font-weight:600;font-size:14px;color:#2b4c7e}
pre{overflow-x:auto;font-size:12px}
#summary .grid{display:grid;grid-template-columns:1.15fr 1fr;gap:0 22px}
#summary table{font-size:12.5px;margin:4px 0}#summary th,#summary td{padding:2px 6px}
#summary h3{margin:6px 0 2px;font-size:15px}#summary code{white-space:nowrap}#summary p{margin:4px 0;font-size:12.5px}
@media (max-width:900px){main{padding:4px 10px}section{padding:6px 10px 14px}
#summary .grid{grid-template-columns:1fr}}
"""


def table(head: list[str], rows: list[list], num=frozenset()) -> dict:
    """A table for the template; columns in ``num`` are right-aligned numbers."""
    return {"head": head, "rows": rows, "num": set(num)}


def _yes(flag: bool) -> dict:
    return {"kind": "yes" if flag else "no"}


def _code(text) -> dict:
    return {"kind": "code", "text": str(text) if text else ""}


def _cute(t: dict) -> dict:
    """The CuTe form, or the swizzle CuTe's formula would write marked as one CuTe forbids."""
    if t["cute"]:
        return _code(t["cute"])
    if t["cute_forbidden"]:
        return _code(f"none: {t['cute_forbidden']} is forbidden by CuTe (|S| < B)")
    return _code(None)


def _fig(img: Path, name: str, caption: str) -> dict:
    """A figure: the PNG inlined, its pixel size, and the smallest text it holds in pixels
    at that size (``min_font_px``, written by :mod:`swizzlekit.plots`), which
    the page's browser test scales by the size the picture is shown at."""
    from PIL import Image

    path = img / name
    with Image.open(path) as im:
        width, height = im.size
        min_font = float(im.info.get("min_font_px", 0))
    data = base64.b64encode(path.read_bytes()).decode()
    return {"src": f"data:image/png;base64,{data}", "caption": caption, "width": width,
            "height": height, "min_font_px": min_font}


def _env(env: dict) -> str:
    keys = ("date", "gpu", "cuda", "torch", "triton")
    return ", ".join(f"{k} {env[k]}" for k in keys if env.get(k))


@functools.lru_cache(maxsize=1)
def _env_jinja():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def _proof(t: dict) -> str:
    """What the solver proved: optimal (the bound met), else conflict-free or not."""
    if t.get("optimal"):
        return "optimal"
    return "best found, conflict-free" if t["conflict_free"] else "best found"


def _smem(d: dict, img: Path) -> dict:
    tiles = [[t["name"], t["answer"], " ".join(t["accesses"]), _cute(t) if t["cute"] else
              _code(t["layout"]), f"{t['wavefronts_before']} → {t['wavefronts_after']}",
              t["lower_bound"], _proof(t)] for t in d["gemm_tiles"]]
    cases = [[c["name"], c["source"], " ".join(c["accesses"]), _cute(c) if c["cute"] else
              _code(c["layout"]), c["answer"], f"{c['wavefronts_before']} → "
              f"{c['wavefronts_after']}", c["storage"], _proof(c)]
             for c in d["cases"] if "same_as" not in c]
    forms = [[t["name"], _code(t["layout"]), _cute(t), t["tma"] or "–", _code(t["triton"])]
             for t in d["gemm_tiles"] + d["cases"] if "same_as" not in t]
    repeated = [f"{c['name']} (the same problem as {c['same_as']})"
                for c in d["cases"] if "same_as" in c]
    return {"tiles": table(["tile", "read by", "accesses", "layout (CuTe where it has one)",
                            "wavefronts before → after", "lower bound", "proof"], tiles, {5}),
            "forms": table(["tile or case", "layout", "CuTe", "TMA", "Triton index"], forms),
            "tile_figs": [_fig(img, t["png"], f"{t['name']}: row-major, then the solver's "
                               f"layout, at the access row-major serves worst")
                          for t in d["gemm_tiles"] if "png" in t],
            "cases": table(["case", "source", "accesses", "layout", "answer given",
                            "wavefronts before → after", "storage (elements)", "proof"],
                           cases, {6}),
            "repeated": repeated,
            "case_figs": [_fig(img, c["png"], f"{c['name']} ({c['source']}): before and after")
                          for c in d["cases"] if "png" in c]}


def _label(r: dict) -> str:
    return " ".join([r["order"]] + [f"{k}={v}" for k, v in r["params"].items()])


def _pct(x) -> str:
    return "–" if x is None else f"{x:+.1f}%"


def _cta(d: dict, img: Path) -> dict:
    from swizzlekit.cta.rank import DEFAULT_ORDER, label
    from swizzlekit.cta.timing import ORDER_TWINS, TIME_HELDOUT, time_parameters

    picks = []
    for s in d["shapes"]:
        v, flagged = s["verdict"], s["status"].startswith("contradicted")
        fastest = s["ranking"][0]
        picks.append(["×".join(map(str, s["shape"])), _code(s["recommended"]),
                      f"{v['time_s'] * 1e6:.0f}",
                      _code(f"{_label(fastest)} ({fastest['time_s'] / v['time_s'] - 1:+.1%})"),
                      _pct(v["row_over_pick_pct"] - v["pick_over_row_pct"]),
                      {"kind": "flag", "text": s["status"]} if flagged else s["status"],
                      _code(s["best_grouped"])])
    held = d.get("heldout")
    default = label(*DEFAULT_ORDER)
    fitted = time_parameters(d["gpu"])["fitted"]
    t, tw = TIME_HELDOUT[fitted]["heldout"], ORDER_TWINS[fitted]
    time_line = (f"Ranked by the time model (swizzlekit.cta.timing, fitted on {fitted}): held "
                 f"out, its times relative to each problem's fastest order err "
                 f"{t['rel_err_median_pct']}% at the median and {t['rel_err_worst_pct']}% at "
                 f"worst, and its pick (the predicted fastest order, {default} where that "
                 f"ties) runs within 2% of the fastest order on {t['pick_within_2pct']:.0%} "
                 f"of {t['problems']} problems ({t['pick_within_5pct']:.0%} within 5%; "
                 f"docs/cta.md). The timings set a floor under that: {tw['over_2pct']} of "
                 f"{tw['sets']} sets of identical orders in the tables lie more than 2% "
                 f"apart. Where every order is predicted within the card's noise band of the "
                 f"fastest and no order, however poor its reuse, could make the kernel wait "
                 f"on DRAM, the order does not matter within that band (held out, every "
                 f"order ran within it on {t['claims_true']} of {t['claims']} such "
                 f"problems); where the orders are predicted within the band but that bound "
                 f"fails, they may lie further apart (held out, every order ran within the "
                 f"band on {t['withheld_true']} of {t['withheld']} such problems); where "
                 f"{default} alone ties the fastest within the band, the order still matters "
                 f"beyond it.")
    out = {"gpu": d["gpu"], "gpu_name": d["gpu_name"], "tile": d["tile"], "sms": d["sms"],
           "ctas_per_sm": d["ctas_per_sm"], "l2_mib": f"{d['l2_bytes'] / 2**20:.0f}",
           "time_line": time_line,
           "error_line": (f"The L2 model behind it, on {held['runs']} held-out runs on the "
                          f"{held['card']}: hit "
                          f"rate within {held['hit_mean']} points on average "
                          f"({held['hit_worst']} at worst), DRAM bytes within "
                          f"{held['dram_median_pct']}% (median)." if held else
                          "No held-out L2 measurements for this GPU."),
           "picks": table(["M×N×K", "recommended", "predicted µs",
                           "fastest predicted (time vs the recommended)", "row order",
                           "status", "best group size"], picks, {2, 4}),
           "parity": None, "detail": [], "measured": []}
    if held and held.get("png"):
        out["parity"] = {"text": f"Each point is one held-out run ({held['source']}).",
                         "fig": _fig(img, held["png"], "L2 hit rate on held-out runs: the model "
                                     "against ncu, by tile config and element type")}
    for s in d["shapes"]:
        rows = [[_code(_label(r)), f"{r['time_s'] * 1e6:.0f}", f"{r['time_vs_row']:.3f}",
                 f"{r['l2_hit_rate']:.1f}", f"{r['dram_read_bytes'] / 1e6:.0f}",
                 f"{r['vs_row']:.2f}"] for r in s["ranking"]]
        shape = "×".join(map(str, s["shape"]))
        out["detail"].append({
            "title": f"{shape}: every order",
            "table": table(["order", "predicted µs", "time vs row", "L2 hit %", "DRAM MB",
                            "DRAM vs row"], rows, {1, 2, 3, 4, 5}),
            "figs": [_fig(img, p, f"{lbl}: where each CTA of the first waves runs, {shape}")
                     for p, lbl in zip(s.get("pngs", []), s.get("png_labels", []))]})
    times = d.get("order_times")
    if times:
        rows = [[f"{r['M']}×{r['N']}×{r['K']}", _code(_label(r)), f"{r['ms']:.4f}",
                 f"{r['ms_min']:.4f}–{r['ms_max']:.4f}", len(r["times"])]
                for r in times["rows"]]
        out["measured"].append({"title": "Orders timed now in replicates (--measure)",
                                "summary": "", "source": times["source"], "open": True,
                                "table": table(["shape", "order", "median ms", "spread (ms)",
                                                "replicates"], rows, {2, 3, 4})})
    m = d.get("measured")
    if m:
        rows = [[r["shape"], _code(_label(r)), f"{r['measured_hit']:.1f} ± "
                 f"{r['measured_hit_spread'] / 2:.1f}", f"{r['model_hit']:.1f}",
                 f"{r['measured_dram'] / 1e6:.0f}", f"{r['model_dram'] / 1e6:.0f}",
                 f"{r['ms']:.3f}" if r.get("ms") else "–"] for r in m["rows"]]
        out["measured"].append({
            "title": "The L2 table on the H200 beside the model",
            "summary": (f"{len(m['rows'])} problems, each measured in two passes: over those "
                        f"{2 * len(m['rows'])} runs the model errs {m['mean_abs_error']} points "
                        f"of hit rate on average, {m['worst_abs_error']} at worst (none of "
                        f"them was fitted on)."),
            "source": m["source"] + (f"; {_env(m['env'])}" if m.get("env") else ""),
            "open": False,
            "table": table(["shape", "order", "measured L2 hit % (± half the spread)",
                            "model L2 hit %", "measured DRAM MB", "model DRAM MB", "ms"],
                           rows, {2, 3, 4, 5, 6})})
    now = d.get("measured_now")
    if now:
        rows = [[r["shape"], _code(_label(r)), f"{r['measured_hit']:.1f}",
                 f"{r['model_hit']:.1f}", f"{r['measured_dram'] / 1e6:.0f}",
                 f"{r['model_dram'] / 1e6:.0f}"] for r in now["rows"]]
        out["measured"].append({
            "title": "L2 measured now (--measure) beside the model", "summary": "",
            "source": now["source"], "open": True,
            "table": table(["shape", "order", "measured L2 hit %", "model L2 hit %",
                            "measured DRAM MB", "model DRAM MB"], rows, {2, 3, 4, 5})})
    return out


def _bench_table(rows: list[dict]) -> dict:
    return table(["M×N×K", "precision", "kernel", "order", "ms", "TFLOP/s", "vs cuBLAS", "check"],
                 [[f"{r['M']}×{r['N']}×{r['K']}", r["precision"], r["kernel"], r["order"] or "–",
                   f"{float(r['ms']):.3f}", f"{float(r['tflops']):.1f}",
                   f"{float(r['vs_cublas']):.3f}", _yes(r["ok"] is True)] for r in rows],
                 {4, 5, 6})


def _kernel_summary_table(rows: list[dict]) -> dict:
    def given(r):
        g = r.get("as_given")
        return "–" if not g else f"{g['geomean']:.3f} over {g['shapes']}, {g['below']} below 0.90×"

    return table(["precision", "shapes", "geomean × cuBLAS", "below 0.90×", "worst",
                  "tutorial baseline geomean", "below the baseline",
                  "fp8 where _scaled_mm takes the shape"],
                 [[r["precision"], r["shapes"], f"{r['geomean']:.3f}", r["below"],
                   f"{r['worst']:.3f} ({r['worst_shape']})",
                   "–" if r["baseline_geomean"] is None else f"{r['baseline_geomean']:.3f}",
                   "–" if r.get("below_baseline") is None else r["below_baseline"], given(r)]
                  for r in rows], {1, 2, 3, 6})


def _by_shape(rows: list[dict]) -> dict:
    """× cuBLAS per shape (rows) and precision (columns) of the Triton GEMM."""
    from swizzlekit.report.summary import SHORTFALL, _ours

    ours = _ours(rows)
    precs = list(dict.fromkeys(k[3] for k in ours))
    shapes = sorted(dict.fromkeys(k[:3] for k in ours), key=lambda s: (s[0] * s[1] * s[2], s))
    body = []
    for shape in shapes:
        cells = []
        for p in precs:
            r = ours.get((*shape, p))
            v = float(r["vs_cublas"]) if r else None
            cells.append("–" if v is None else {"kind": "flag", "text": f"{v:.3f}"}
                         if v < SHORTFALL else f"{v:.3f}")
        body.append(["×".join(map(str, shape)), *cells])
    return table(["M×N×K", *[f"{p} × cuBLAS" for p in precs]], body,
                 set(range(1, len(precs) + 1)))


#: The SGEMM ladder's rungs the kernels section shows first: the seed's two kernels, the
#: bank-free rung (the solver's layout) and the best rung.
LADDER_RUNGS = ("cuda_naive", "cuda_sgemmopt", "cuda_bank_free", "cuda_warptile")


def _ladder(rows: list[dict]) -> dict:
    """× cuBLAS SGEMM of :data:`LADDER_RUNGS` per size (fp32 rows)."""
    at = {(int(r["M"]), r["kernel"]): float(r["vs_cublas"]) for r in rows
          if r["precision"] == "fp32"}
    sizes = sorted({m for m, _ in at})
    return table(["size", *[f"{k} × cuBLAS" for k in LADDER_RUNGS]],
                 [[f"{n}³", *[f"{at[(n, k)]:.3f}" if (n, k) in at else "–"
                              for k in LADDER_RUNGS]] for n in sizes],
                 set(range(1, len(LADDER_RUNGS) + 1)))


def _kernels(d: dict, img: Path) -> list[dict]:
    if d["source"] == "measured":
        from swizzlekit.report.summary import kernel_summary

        return [{"title": "", "label": f"Measured now on {_env(d.get('env', {}))}; L2 flushed "
                                       "before each repetition; every result checked against "
                                       "float64.",
                 "summary": _kernel_summary_table(kernel_summary(d["rows"])),
                 "table": _bench_table(d["rows"]), "fold": "every run",
                 "figs": [_fig(img, p, c) for p, c in zip(d["pngs"], d["captions"])]}]
    out = []
    for t in d["tables"]:
        commands = t["command"] if isinstance(t["command"], list) else [t["command"]]
        label = (f"Shipped results, not measured now: {_env(t['env'])}"
                 f"{', commit ' + t['commit'] if t['commit'] else ''} ({t['file']}"
                 f"{'; ' + '; '.join(c for c in commands if c) if any(commands) else ''})")
        if t["summary"]:
            out.append({"title": t["what"], "label": label,
                        "summary": _kernel_summary_table(t["summary"]),
                        "table": _by_shape(t["rows"]), "fold": "every shape", "figs": []})
        else:
            out.append({"title": t["what"], "label": label, "summary": _ladder(t["rows"]),
                        "table": _bench_table(t["rows"]), "fold": "every rung at every size",
                        "figs": []})
    return out


def _summary(d: dict) -> dict:
    src = d["kernels_source"]
    tiles = [[t["tile"], _code(t["layout"]), f"{t['before']} → {t['after']}", t["proof"]]
             for t in d["tiles"]]
    orders = [[o["shape"], _code(o["recommended"]), _pct(o["row_slower_pct"]),
               {"kind": "flag", "text": o["status"]} if o["status"].startswith("contradicted")
               else o["status"]] for o in d["orders"]]
    kernels = [[k["precision"], f"{k['geomean']:.3f}", f"{k['below']} of {k['shapes']}",
                f"{k['worst']:.3f} ({k['worst_shape']})"] for k in d["kernels"]]
    return {"tiles": table(["GEMM tile", "layout", "wavefronts", "proof"], tiles),
            "orders": table(["M×N×K", "recommended order", "row order: predicted slower by",
                             "measured"], orders, {2}),
            "kernels": table(["precision", "geomean × cuBLAS", "below 0.90×", "worst"],
                             kernels, {1}),
            "kernels_source": f"{src['gpu']}, {src['date']}, {src['versions']}"
                              f"{', commit ' + src['commit'] if src['commit'] else ''} "
                              f"({src['file']})"}


def _seeds(d: dict) -> list[dict]:
    s1, s2, s3, s4 = d["seed001"], d["seed002"], d["seed003"], d["seed004"]
    return [
        {"title": s1["title"], "note": f"Published on {s1['published_on']}; measured: "
                                       f"{s1['measured']}.", "pre": s1.get("measured_now"),
         "table": table(["M×N×K", "kernel", "published L2 hit %", "H200 measured %",
                         "L2 model %"], [[r["shape"], r["kernel"], r["published"],
                                          f"{r['measured_hit']:.2f}", f"{r['model_hit']:.2f}"]
                                         for r in s1["rows"]], {2, 3, 4})},
        {"title": s2["title"], "pre": None,
         "note": f"Published on {s2['published_on']}; measured: {s2['measured']}"
                 f"{', ' + _env(s2['env']) if s2.get('env') else ''}.",
         "table": table(["size", "published baseline GFLOP/s", "published GEMM GFLOP/s",
                         "published speedup", "H200 cuda_naive GFLOP/s",
                         "H200 cuda_sgemmopt GFLOP/s", "H200 speedup"],
                        [[f"{r['size']}³", r["published_baseline_gflops"],
                          r["published_gemm_gflops"], r["published_speedup"],
                          r["h200_naive_gflops"], r["h200_sgemmopt_gflops"], r["h200_speedup"]]
                         for r in s2["rows"]], {1, 2, 3, 4, 5, 6})},
        {"title": s3["title"], "note": "", "pre": None,
         "table": table(["order", "published", "computed"],
                        [[r["order"], r["published"], r["computed"]] for r in s3["rows"]], {1, 2})},
        {"title": s4["title"], "note": "", "pre": None,
         "table": table(["case", "seed's answer", "solver", "conflict-free"],
                        [[r["case"], r["published"], _code(r["solver"]), _yes(r["conflict_free"])]
                         for r in s4["rows"]])}]


def render(data: dict, img: Path) -> str:
    """The page for ``data`` (see :func:`swizzlekit.report.build`); PNG names resolve in ``img``."""
    m = data["meta"]
    mode = ("measured on this GPU now (--measure)" if m["measured"] else
            "built-in defaults and the shipped H200 measurements; no GPU used")
    return _env_jinja().get_template("report.html.j2").render(
        css=_CSS, meta=m, mode=mode, summary=_summary(data["summary"]),
        smem=_smem(data["smem"], img), cta=_cta(data["cta"], img),
        kernels=_kernels(data["kernels"], img), seeds=_seeds(data["seeds"]))
