"""``swizzlekit report``: one page that answers a kernel engineer's questions for one GPU.

:func:`build` collects every number (``collect`` without a GPU; ``measured`` on one, with
``measure=True``), draws the PNGs, and writes ``report.html`` (self-contained: the PNGs are
inlined), ``report.json`` (every number on the page) and ``img/*.png`` to ``out``.

>>> from swizzlekit.report import build
>>> build("b300", "unused")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: unknown GPU 'b300'; valid: h200, h100-sxm, h100-pcie, a100, rtx4090, rtx4050-laptop
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from swizzlekit import __version__
from swizzlekit.errors import SwizzleKitError
from swizzlekit.gpus import gpu as gpu_preset

__all__ = ["build", "SECTIONS"]

SECTIONS = ("summary", "smem", "cta", "kernels", "seeds")


def build(gpu: str = "h200", out: str | Path = "swizzlekit-report", measure: bool = False,
          progress: bool = True) -> dict:
    """Write the report for ``gpu`` (a preset of :mod:`swizzlekit.gpus`) to ``out``; return
    its data. ``measure=True`` runs the measured sections on this machine's GPU."""
    from rich.progress import Progress

    from swizzlekit.report import collect
    from swizzlekit.report.html import render
    from swizzlekit.report.summary import summary

    g = gpu_preset(gpu)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SwizzleKitError(f"--out {out} is a file; give a folder")
    img = out / "img"
    img.mkdir(parents=True, exist_ok=True)
    data: dict = {"meta": {"gpu": gpu, "gpu_name": g.name, "gpu_sources": g.sources,
                           "version": __version__, "date": dt.date.today().isoformat(),
                           "measured": measure}}
    steps = [("shared memory: solve, check and draw every tile",
              lambda: data.__setitem__("smem", collect.smem_section(img))),
             ("CTA orders: rank by the L2 model, draw the orders",
              lambda: data.__setitem__("cta", collect.cta_section(gpu, img))),
             ("kernels: the shipped H200 results",
              lambda: data.__setitem__("kernels", collect.committed_kernels(img))),
             ("the seeds' tables", lambda: data.__setitem__("seeds", {
                 "seed001": collect.seed001(), "seed002": collect.seed002(),
                 "seed003": collect.seed003(), "seed004": collect.seed004(data["smem"]["cases"])}))]
    if measure:
        from swizzlekit.report import measured

        results: dict = {}
        steps += [(title, lambda f=f, t=title: results.__setitem__(t, f(out, gpu)))
                  for title, f in measured.STEPS]
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("report", total=len(steps))
        for title, step in steps:
            bar.update(task, description=title)
            step()
            bar.advance(task)
    if measure:
        _merge(data, results, measured.STEPS)
        collect.judge_picks(data["cta"], data["kernels"])
    data["summary"] = summary(data)
    (out / "report.json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    (out / "report.html").write_text(render(data, img))
    return data


def _merge(data: dict, results: dict, steps) -> None:
    """Put the measured results where the page shows them."""
    ceilings, kernels, l2, times, s1, s2 = (results[t] for t, _ in steps)
    data["meta"]["env"] = ceilings["env"]
    data["meta"]["ceilings"] = ceilings
    data["kernels"] = {**kernels, "env": ceilings["env"]}
    data["cta"]["measured_now"] = l2
    data["cta"]["order_times"] = times
    data["seeds"]["seed001"]["measured_now"] = s1["table"]
    at = {(int(r["M"]), r["kernel"]): r for r in s2["rows"]}
    for row in data["seeds"]["seed002"]["rows"]:
        naive, opt = at.get((row["size"], "cuda_naive")), at.get((row["size"], "cuda_sgemmopt"))
        if naive and opt:
            row.update(h200_naive_gflops=round(float(naive["tflops"]) * 1e3, 1),
                       h200_sgemmopt_gflops=round(float(opt["tflops"]) * 1e3, 1),
                       h200_speedup=round(float(naive["ms"]) / float(opt["ms"]), 2))
    data["seeds"]["seed002"]["measured"] = "this GPU, now (--measure)"
    data["seeds"]["seed002"]["env"] = ceilings["env"]
