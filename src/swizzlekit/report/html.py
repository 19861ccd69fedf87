"""Render the report's data as one self-contained HTML page (PNGs inlined as data URIs).

Each section is a ``<section id=...>``: ``smem``, ``cta``, ``kernels``, ``seeds``. Numbers
are printed from the data dict the JSON holds, so the page and the JSON never disagree.

>>> table(["a", "b"], [[1, "<x>"]])
'<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>&lt;x&gt;</td></tr></tbody></table>'
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

__all__ = ["render", "table"]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2430;
background:#f6f7f9;line-height:1.45}
header{background:#1d2430;color:#fff;padding:22px 32px}header h1{margin:0 0 6px;font-size:24px}
header p{margin:2px 0;color:#c9d1dc;font-size:14px}nav{margin-top:10px}
nav a{color:#8cc4ff;margin-right:18px;text-decoration:none;font-weight:600}
main{max-width:1180px;margin:0 auto;padding:8px 32px 40px}
section{background:#fff;border-radius:8px;padding:8px 24px 20px;margin:22px 0;
box-shadow:0 1px 3px rgba(0,0,0,.08)}h2{border-bottom:2px solid #e3e7ed;padding-bottom:6px}
h3{margin-top:26px}table{border-collapse:collapse;margin:10px 0;font-size:13px;width:100%}
th,td{border:1px solid #e3e7ed;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
code{background:#f0f3f7;padding:1px 4px;border-radius:3px;font-size:12px}
.ok{color:#137333;font-weight:600}.bad{color:#b3261e;font-weight:600}
.label{display:inline-block;background:#fff4d6;border:1px solid #f0d58a;border-radius:4px;
padding:2px 8px;font-size:13px;margin:4px 0}
.figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:14px}
figure{margin:0}figure img{max-width:100%;border:1px solid #e3e7ed;border-radius:4px}
figcaption{font-size:12px;color:#5b6675}.muted{color:#5b6675;font-size:13px}
"""


def table(head: list[str], rows: list[list], num: set[int] = frozenset()) -> str:
    """An HTML table; columns in ``num`` are right-aligned numbers."""
    h = "".join(f"<th>{escape(str(x))}</th>" for x in head)
    body = "".join("<tr>" + "".join(
        f"<td{' class=num' if i in num else ''}>{x if isinstance(x, _Raw) else escape(str(x))}"
        f"</td>" for i, x in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


class _Raw(str):
    """Already-escaped HTML for a table cell."""


def _yes(flag: bool) -> _Raw:
    return _Raw('<span class="ok">yes</span>' if flag else '<span class="bad">no</span>')


def _code(text) -> _Raw:
    return _Raw(f"<code>{escape(str(text))}</code>") if text else _Raw("–")


def _fig(img: Path, name: str, caption: str) -> str:
    data = base64.b64encode((img / name).read_bytes()).decode()
    return (f'<figure><img alt="{escape(caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>")


def _env(env: dict) -> str:
    keys = ("date", "gpu", "cuda", "torch", "triton")
    return ", ".join(f"{k} {env[k]}" for k in keys if env.get(k))


def _smem(d: dict, img: Path) -> str:
    rows = [[t["name"], t["source"], t["answer"], " ".join(t["accesses"]), _code(t["layout"]),
             _code(t["cute"] or t["cute_forbidden"]), t["tma"] or "–", _code(t["triton"]),
             f"{t['wavefronts_before']} → {t['wavefronts_after']} (bound {t['lower_bound']})",
             _yes(t["conflict_free"])] for t in d["gemm_tiles"]]
    out = ["<h2>Shared memory: the solver's layouts</h2>",
           "<p>For each tile: the accesses that must be conflict-free (the 128-byte wavefront "
           "sets of <code>swizzlekit.smem</code>), the layout the solver picks, its CuTe, TMA and "
           "Triton forms, and the wavefronts of every placement of every access before "
           "(row-major) and after, against the lower bound. The bank model behind these counts "
           "reproduces Nsight Compute on the H200 for all 944 measured instructions "
           "(docs/smem.md).</p>",
           table(["tile", "precision", "read by", "accesses", "layout", "CuTe", "TMA",
                  "Triton index", "wavefronts", "conflict-free"], rows)]
    out.append("<h3>Bank maps, before and after</h3><div class=figs>")
    out += [_fig(img, t["png"], t["name"]) for t in d["gemm_tiles"] if "png" in t]
    out.append("</div><h3>Built-in cases (seeds 004 and 002, and this project's kernels)</h3>")
    out.append(table(["case", "source", "accesses", "layout", "CuTe", "answer given",
                      "wavefronts", "conflict-free"],
                     [[c["name"], c["source"], " ".join(c["accesses"]), _code(c["layout"]),
                       _code(c["cute"] or c["cute_forbidden"]), c["answer"],
                       f"{c['wavefronts_before']} → {c['wavefronts_after']}",
                       _yes(c["conflict_free"])] for c in d["cases"]]))
    out.append("<div class=figs>")
    out += [_fig(img, c["png"], c["name"]) for c in d["cases"] if "png" in c]
    return "\n".join(out + ["</div>"])


def _cta(d: dict, img: Path) -> str:
    out = [f"<h2>CTA order: ranked by the L2 model on {escape(d['gpu_name'])}</h2>",
           f"<p>fp16 GEMMs in 128×128×64 tiles, waves of {d['sms']} CTAs, "
           f"{d['l2_bytes'] / 2**20:.0f} MiB of L2 (the <code>{escape(d['gpu'])}</code> preset). "
           "Orders are ranked by predicted DRAM bytes read, then L2 hit rate.</p>"]
    rows = []
    for s in d["shapes"]:
        top = s["ranking"][0]
        rows.append(["×".join(map(str, s["shape"])), _code(s["recommended"]),
                     f"{top['l2_hit_rate']:.1f}", f"{top['dram_read_bytes'] / 1e6:.0f}",
                     f"{s['row']['l2_hit_rate']:.1f}", f"{s['row']['dram_read_bytes'] / 1e6:.0f}",
                     f"{top['vs_row']:.2f}", _code(s["best_grouped"])])
    out.append(table(["M×N×K", "recommended", "L2 hit %", "DRAM MB", "row: L2 hit %",
                      "row: DRAM MB", "DRAM vs row", "best grouped"], rows, {2, 3, 4, 5, 6}))
    for s in d["shapes"]:
        if "pngs" in s:
            out.append(f"<h3>{'×'.join(map(str, s['shape']))}: every order</h3>")
            out.append(table(["order", "L2 hit %", "DRAM MB", "DRAM vs row"],
                             [[_code(_label(r)), f"{r['l2_hit_rate']:.1f}",
                               f"{r['dram_read_bytes'] / 1e6:.0f}", f"{r['vs_row']:.2f}"]
                              for r in s["ranking"]], {1, 2, 3}))
            out.append("<div class=figs>" + "".join(
                _fig(img, p, p[6:-4].replace("_", " ")) for p in s["pngs"]) + "</div>")
    for key, title in (("measured", "Measured on the H200 (shipped tables) beside the model"),
                       ("measured_now", "Measured now (--measure) beside the model")):
        m = d.get(key)
        if not m:
            continue
        out.append(f"<h3>{title}</h3><p class=muted>{escape(m['source'])}"
                   f"{'; ' + escape(_env(m['env'])) if m.get('env') else ''}</p>")
        if "mean_abs_error" in m:
            out.append(f"<p>Mean absolute error {m['mean_abs_error']} points, worst "
                       f"{m['worst_abs_error']}, over {len(m['rows'])} runs "
                       "(docs/cta.md says where the model misses).</p>")
        out.append(table(["shape", "order", "measured L2 hit %", "model L2 hit %",
                          "measured DRAM MB", "model DRAM MB"],
                         [[r["shape"], r["order"], f"{r['measured_hit']:.1f}",
                           f"{r['model_hit']:.1f}", f"{r['measured_dram'] / 1e6:.0f}",
                           f"{r['model_dram'] / 1e6:.0f}"] for r in m["rows"]], {2, 3, 4, 5}))
    return "\n".join(out)


def _label(r: dict) -> str:
    return " ".join([r["order"]] + [f"{k}={v}" for k, v in r["params"].items()])


def _bench_rows(rows: list[dict]) -> str:
    return table(["M×N×K", "precision", "kernel", "order", "ms", "TFLOP/s", "vs cuBLAS", "check"],
                 [[f"{r['M']}×{r['N']}×{r['K']}", r["precision"], r["kernel"], r["order"] or "–",
                   f"{float(r['ms']):.3f}", f"{float(r['tflops']):.1f}",
                   f"{float(r['vs_cublas']):.3f}", _yes(r["ok"] is True)] for r in rows],
                 {4, 5, 6})


def _kernels(d: dict, img: Path) -> str:
    out = ["<h2>Kernels against cuBLAS</h2>"]
    if d["source"] == "measured":
        out.append(f"<p class=label>Measured now on {escape(_env(d.get('env', {})))}; L2 "
                   "flushed before each repetition; every result checked against float64.</p>")
        out.append(_bench_rows(d["rows"]))
        out.append("<div class=figs>" + "".join(_fig(img, p, p) for p in d["pngs"]) + "</div>")
        return "\n".join(out)
    for t in d["tables"]:
        out.append(f"<h3>{escape(t['what'])}</h3><p class=label>Committed H200 results, not "
                   f"measured now: {escape(_env(t['env']) or 'H200')} "
                   f"(<code>{escape(t['file'])}</code>)</p>")
        out.append(_bench_rows(t["rows"]))
        out.append("<div class=figs>" + "".join(_fig(img, p, p) for p in t["pngs"]) + "</div>")
    return "\n".join(out)


def _seeds(d: dict) -> str:
    s1, s2, s3, s4 = d["seed001"], d["seed002"], d["seed003"], d["seed004"]
    out = ["<h2>The seeds' headline tables, reproduced</h2>",
           f"<h3>{escape(s1['title'])}</h3><p class=muted>Published on {escape(s1['published_on'])}; "
           f"measured: {escape(s1['measured'])}.</p>",
           table(["M×N×K", "kernel", "published L2 hit %", "H200 measured %", "L2 model %"],
                 [[r["shape"], r["kernel"], r["published"], f"{r['measured_hit']:.2f}",
                   f"{r['model_hit']:.2f}"] for r in s1["rows"]], {2, 3, 4})]
    if s1.get("measured_now"):
        out.append(f"<p>Measured now (ncu):</p><pre>{escape(s1['measured_now'])}</pre>")
    out += [f"<h3>{escape(s2['title'])}</h3><p class=muted>Published on "
            f"{escape(s2['published_on'])}; measured: {escape(s2['measured'])}"
            f"{', ' + escape(_env(s2['env'])) if s2.get('env') else ''}.</p>",
            table(["size", "published baseline GFLOP/s", "published GEMM GFLOP/s",
                   "published speedup", "H200 cuda_naive GFLOP/s", "H200 cuda_sgemmopt GFLOP/s",
                   "H200 speedup"],
                  [[f"{r['size']}³", r["published_baseline_gflops"], r["published_gemm_gflops"],
                    r["published_speedup"], r["h200_naive_gflops"], r["h200_sgemmopt_gflops"],
                    r["h200_speedup"]] for r in s2["rows"]], {1, 2, 3, 4, 5, 6}),
            f"<h3>{escape(s3['title'])}</h3>",
            table(["order", "published", "computed"],
                  [[r["order"], r["published"], r["computed"]] for r in s3["rows"]], {1, 2}),
            f"<h3>{escape(s4['title'])}</h3>",
            table(["case", "seed's answer", "solver", "conflict-free"],
                  [[r["case"], r["published"], _code(r["solver"]), _yes(r["conflict_free"])]
                   for r in s4["rows"]])]
    return "\n".join(out)


def render(data: dict, img: Path) -> str:
    """The page for ``data`` (see :func:`swizzlekit.report.build`); PNG names resolve in ``img``."""
    m = data["meta"]
    mode = ("measured on this GPU now (--measure)" if m["measured"] else
            "built-in defaults and the shipped H200 measurements; no GPU used")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>swizzlekit report: {escape(m['gpu_name'])}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_CSS}</style></head>
<body><header><h1>swizzlekit report: {escape(m['gpu_name'])}</h1>
<p>swizzlekit {escape(m['version'])}, {escape(m['date'])}; {escape(mode)}</p>
<p>Every number on this page is also in <code>report.json</code>.</p>
<nav><a href="#smem">Shared memory</a><a href="#cta">CTA order</a><a href="#kernels">Kernels</a>
<a href="#seeds">Seeds</a></nav></header><main>
<section id="smem">{_smem(data['smem'], img)}</section>
<section id="cta">{_cta(data['cta'], img)}</section>
<section id="kernels">{_kernels(data['kernels'], img)}</section>
<section id="seeds">{_seeds(data['seeds'])}</section>
</main></body></html>
"""
