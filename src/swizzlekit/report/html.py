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
background:#f6f7f9;line-height:1.45}
header{background:#1d2430;color:#fff;padding:22px 32px}header h1{margin:0 0 6px;font-size:24px}
header p{margin:2px 0;color:#c9d1dc;font-size:14px}nav{margin-top:10px}
header a{color:#8cc4ff;text-decoration:none;font-weight:600}nav a{margin-right:18px}
main{max-width:1180px;margin:0 auto;padding:8px 32px 40px}
section{background:#fff;border-radius:8px;padding:8px 24px 20px;margin:22px 0;
box-shadow:0 1px 3px rgba(0,0,0,.08)}h2{border-bottom:2px solid #e3e7ed;padding-bottom:6px}
h3{margin-top:26px}.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:10px 0;font-size:13px;width:100%}
th,td{border:1px solid #e3e7ed;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
code{background:#f0f3f7;padding:1px 4px;border-radius:3px;font-size:12px}
.ok{color:#137333;font-weight:600}.bad{color:#b3261e;font-weight:600}
.label{display:inline-block;background:#fff4d6;border:1px solid #f0d58a;border-radius:4px;
padding:2px 8px;font-size:13px;margin:4px 0}
.figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:14px}
figure{margin:0}figure img{max-width:100%;border:1px solid #e3e7ed;border-radius:4px}
figcaption{font-size:12px;color:#5b6675}.muted{color:#5b6675;font-size:13px}
pre{overflow-x:auto;font-size:12px}td code{white-space:nowrap}@media (max-width:900px){main{padding:4px 10px}
section{padding:6px 10px 14px}.figs{grid-template-columns:1fr}}
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
    data = base64.b64encode((img / name).read_bytes()).decode()
    return {"src": f"data:image/png;base64,{data}", "caption": caption}


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
    tiles = [[t["name"], t["source"], t["answer"], " ".join(t["accesses"]), _code(t["layout"]),
              _cute(t), t["tma"] or "–", _code(t["triton"]),
              f"{t['wavefronts_before']} → {t['wavefronts_after']} (bound {t['lower_bound']})",
              _proof(t)] for t in d["gemm_tiles"]]
    cases = [[c["name"], c["source"], " ".join(c["accesses"]), _code(c["layout"]),
              _cute(c), c["answer"],
              f"{c['wavefronts_before']} → {c['wavefronts_after']}", c["storage"], _proof(c)]
             for c in d["cases"]]
    return {"tiles": table(["tile", "precision", "read by", "accesses", "layout", "CuTe", "TMA",
                            "Triton index", "wavefronts", "proof"], tiles),
            "tile_figs": [_fig(img, t["png"], f"{t['name']}: row-major, then the solver's "
                               f"layout, at the access row-major serves worst")
                          for t in d["gemm_tiles"] if "png" in t],
            "cases": table(["case", "source", "accesses", "layout", "CuTe", "answer given",
                            "wavefronts", "storage (elements)", "proof"], cases),
            "case_figs": [_fig(img, c["png"], f"{c['name']} ({c['source']}): before and after")
                          for c in d["cases"] if "png" in c]}


def _label(r: dict) -> str:
    return " ".join([r["order"]] + [f"{k}={v}" for k, v in r["params"].items()])


def _cta(d: dict, img: Path) -> dict:
    picks = []
    for s in d["shapes"]:
        top, flagged = s["ranking"][0], s["status"].startswith("contradicted")
        picks.append(["×".join(map(str, s["shape"])), _code(s["recommended"]),
                      {"kind": "flag", "text": s["status"]} if flagged else s["status"],
                      s["confidence"], _code(s["model_pick"]), f"{top['l2_hit_rate']:.1f}",
                      f"{top['dram_read_bytes'] / 1e6:.0f}", f"{s['row']['dram_read_bytes'] / 1e6:.0f}",
                      _code(s["best_grouped"])])
    held = d.get("heldout")
    out = {"gpu": d["gpu"], "gpu_name": d["gpu_name"], "tile": d["tile"], "sms": d["sms"],
           "ctas_per_sm": d["ctas_per_sm"], "l2_mib": f"{d['l2_bytes'] / 2**20:.0f}",
           "error_line": (f"On {held['runs']} held-out H200 runs the model's hit rate errs by "
                          f"{held['hit_mean']} points on average ({held['hit_worst']} at worst), "
                          f"and its DRAM bytes by {held['dram_median_pct']}% (median)."
                          if held else "No held-out measurements for this GPU."),
           "picks": table(["M×N×K", "recommended", "status", "confidence", "model's pick",
                           "model L2 hit %", "model DRAM MB", "row: model DRAM MB",
                           "best group size"], picks, {5, 6, 7}),
           "parity": None, "detail": [], "measured": []}
    if held and held.get("png"):
        out["parity"] = {"text": f"Each point is one held-out run ({held['source']}). The least-"
                                 f"DRAM order ran within 1% of the fastest measured order in "
                                 f"{held['pick_within_1pct']:.0%} of {held['problems']} problems "
                                 f"({held['pick_slowdown_median_pct']}% slower at the median, "
                                 f"{held['pick_slowdown_worst_pct']}% at worst): DRAM bytes do "
                                 "not decide the time of this kernel alone.",
                         "fig": _fig(img, held["png"], "L2 hit rate on held-out runs: the model "
                                     "against ncu, by tile config and element type")}
    for s in d["shapes"]:
        if "pngs" not in s:
            continue
        rows = [[_code(_label(r)), f"{r['l2_hit_rate']:.1f}", f"{r['dram_read_bytes'] / 1e6:.0f}",
                 f"{r['vs_row']:.2f}"] for r in s["ranking"]]
        shape = "×".join(map(str, s["shape"]))
        out["detail"].append({
            "title": f"{shape}: every order",
            "table": table(["order", "L2 hit %", "DRAM MB", "DRAM vs row"], rows, {1, 2, 3}),
            "figs": [_fig(img, p, f"{lbl}: where each CTA of the first waves runs, {shape}")
                     for p, lbl in zip(s["pngs"], s.get("png_labels", s["pngs"]))]})
    for key, title in (("measured", "Measured on the H200 (shipped tables) beside the model"),
                       ("measured_now", "Measured now (--measure) beside the model")):
        m = d.get(key)
        if not m:
            continue
        rows = [[r.get("run", "–"), r["shape"], _code(_label(r)), f"{r['measured_hit']:.1f}",
                 f"{r['model_hit']:.1f}", f"{r['measured_dram'] / 1e6:.0f}",
                 f"{r['model_dram'] / 1e6:.0f}", f"{r['ms']:.3f}" if r.get("ms") else "–"]
                for r in m["rows"]]
        summary = (f"Mean absolute error {m['mean_abs_error']} points, worst "
                   f"{m['worst_abs_error']}, over {len(m['rows'])} runs, none of them in the "
                   "fit (docs/cta.md)." if "mean_abs_error" in m else "")
        out["measured"].append({
            "title": title, "summary": summary,
            "source": m["source"] + (f"; {_env(m['env'])}" if m.get("env") else ""),
            "table": table(["run", "shape", "order", "measured L2 hit %", "model L2 hit %",
                            "measured DRAM MB", "model DRAM MB", "ms"], rows, {3, 4, 5, 6, 7})})
    return out


def _bench_table(rows: list[dict]) -> dict:
    return table(["M×N×K", "precision", "kernel", "order", "ms", "TFLOP/s", "vs cuBLAS", "check"],
                 [[f"{r['M']}×{r['N']}×{r['K']}", r["precision"], r["kernel"], r["order"] or "–",
                   f"{float(r['ms']):.3f}", f"{float(r['tflops']):.1f}",
                   f"{float(r['vs_cublas']):.3f}", _yes(r["ok"] is True)] for r in rows],
                 {4, 5, 6})


def _kernels(d: dict, img: Path) -> list[dict]:
    if d["source"] == "measured":
        return [{"title": "", "label": f"Measured now on {_env(d.get('env', {}))}; L2 flushed "
                                       "before each repetition; every result checked against "
                                       "float64.", "table": _bench_table(d["rows"]),
                 "figs": [_fig(img, p, c) for p, c in zip(d["pngs"], d["captions"])]}]
    return [{"title": t["what"], "label": f"Committed H200 results, not measured now: "
                                          f"{_env(t['env']) or 'H200'} ({t['file']})",
             "table": _bench_table(t["rows"]),
             "figs": [_fig(img, p, c) for p, c in zip(t["pngs"], t["captions"])]}
            for t in d["tables"]]


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
        css=_CSS, meta=m, mode=mode, smem=_smem(data["smem"], img), cta=_cta(data["cta"], img),
        kernels=_kernels(data["kernels"], img), seeds=_seeds(data["seeds"]))
