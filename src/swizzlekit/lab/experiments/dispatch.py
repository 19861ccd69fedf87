"""How the H200 hands CTAs to SMs, and which L2 partition is near which SM.

The L2 model (:mod:`swizzlekit.cta.l2`) needs three facts it cannot see in Nsight Compute's
counters: which SM each CTA of a launch runs on, when it starts and ends (so how far CTAs that
read the same tile drift apart), and which of the two L2 partitions sits beside each SM. This
experiment measures them:

* **Traces.** The order-table GEMM's traced twin
  (:func:`swizzlekit.kernels.triton.table_trace.traced`) records, for every tile, the SM
  (``%smid``) and the global timer when the tile started and when it issued its stores. Each
  run of :data:`TRACES` is traced :data:`REPEATS` times, the L2 flushed before each, as ncu does
  before a profiled launch. Only shapes of the model's fit half, or shapes in neither half,
  are traced, so the held-out half stays unseen.
* **Partitions.** ``dispatch.cu`` runs one block per SM; each reads :data:`LINES` L2-resident
  lines once, then times a second, dependent read of each with ``clock64``. An address homed in
  the SM's own partition answers sooner than one across the fabric, so the latencies split the
  SMs into two sides.

``swizzlekit lab dispatch --out DIR`` writes ``dispatch.npz`` (one array per traced run and
repeat, and the latency matrix) and ``dispatch.json`` (the runs and the provenance).
:func:`analyze` (numpy only) turns them into the facts that :mod:`swizzlekit.gpus` records
and the L2 model's ``dispatch="measured"`` uses; the H200's are in ``docs/data/dispatch/h200/``.

>>> len(TRACES) >= 10, sorted({half(t) for t in TRACES})
(True, ['fit', 'neither'])
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from swizzlekit.lab.experiments.l2_sweep import FIT_SHAPES, HELDOUT_SHAPES, SweepRun

__all__ = ["name", "half", "TRACES", "REPEATS", "LINES", "run", "partition_latency", "trace", "analyze",
           "same_side"]

#: Lines probed per SM, and the buffer they are drawn from (it fits the L2 many times over).
LINES = 1024
BUFFER_BYTES = 8 * 2**20
#: Traced launches per run.
REPEATS = 3


def name(t: SweepRun) -> str:
    """A traced run's name, e.g. ``2048x2048x2048_128x128x64_fp16_grouped-group8``."""
    p = "".join(f"-{k}{v}" for k, v in json.loads(t.params).items())
    return (f"{t.M}x{t.N}x{t.K}_{t.config}_{t.dtype}_{t.order}{p}"
            + ("_persistent" if t.persistent else ""))


def half(t: SweepRun) -> str:
    """The L2 sweep's half the run's shape is in: "fit", "heldout" or "neither"."""
    if t.shape in FIT_SHAPES:
        return "fit"
    return "heldout" if t.shape in HELDOUT_SHAPES else "neither"


def _traces() -> list[SweepRun]:
    g8 = json.dumps({"group": 8})
    out = []

    def run_(M, N, K, config, dtype, order, params="{}", persistent=False):
        return SweepRun(M, N, K, config, dtype, order, params, persistent, 0)

    for shape, cfg, dtype, orders in [
            ((2048, 2048, 2048), "128x128x64", "fp16", ["row", "hilbert", "random"]),
            ((2048, 2048, 2048), "256x128x64", "fp16", ["row", "hilbert"]),
            ((8192, 8192, 8192), "128x256x64", "fp16", ["row", "grouped"]),
            ((8192, 8192, 8192), "64x128x64", "fp16", ["row", "grouped"]),
            ((16384, 16384, 512), "64x64x64", "fp16", ["row", "hilbert"]),
            ((6144, 6144, 6144), "128x128x32", "fp32", ["row"])]:
        for o in orders:
            out.append(run_(*shape, cfg, dtype, o, g8 if o == "grouped" else "{}"))
    out.append(run_(2048, 2048, 2048, "128x128x64", "fp16", "grouped", g8, persistent=True))
    out.append(run_(8192, 8192, 8192, "128x256x64", "fp16", "row", persistent=True))
    # one partial wave: every CTA resident at once (a shape in neither half of the sweep)
    for cfg in ("64x64x64", "64x128x64"):
        for o in ("row", "hilbert", "random"):
            out.append(run_(1024, 2048, 1024, cfg, "fp16", o))
    return out


TRACES = _traces()


def trace(t: SweepRun) -> tuple[list[np.ndarray], dict]:
    """:data:`REPEATS` traces of run ``t``: arrays of (tile_m, tile_n, smid, start_ns, end_ns)
    per tile slot, times from the first start, each launch checked against float64; and the
    traced kernel's registers and shared memory (its residency can differ from the measured
    kernel's, so the analysis compares the two)."""
    import torch

    from swizzlekit.kernels.triton.table_gemm import (DTYPES, default_programs, order_table,
                                                      tile_config)
    from swizzlekit.kernels.triton.table_trace import traced
    from swizzlekit.lab.experiments.l2_sweep import _operands, sweep_order
    from swizzlekit.lab.verify import relative_error

    cfg = tile_config(t.config)
    a, b, _ = _operands(t)
    od = sweep_order(t.order, -(-t.M // cfg.bm), -(-t.N // cfg.bn), json.loads(t.params))
    table = order_table(od, "cuda")
    programs = default_programs(t.config, DTYPES[t.dtype][1], t.shape) if t.persistent else None
    flush = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")
    kernel = traced(a, b, table, config=t.config, programs=programs)[2]     # compile, warm up
    regs, smem = int(kernel.n_regs), int(kernel.metadata.shared)
    ref = a.double() @ b.double()
    out = []
    for _ in range(REPEATS):
        flush.zero_()
        torch.cuda.synchronize()
        c, tr, _ = traced(a, b, table, config=t.config, programs=programs)
        torch.cuda.synchronize()
        err = relative_error(c, ref=ref)
        if not err < 1e-2:
            raise RuntimeError(f"{name(t)}: relative error {err:.3g} against float64")
        tr = tr.cpu().numpy()
        if (tr < 0).any():
            raise RuntimeError(f"{name(t)}: some tiles left no trace")
        tr[:, 1:] -= tr[:, 1].min()
        out.append(np.column_stack([od, tr]).astype(np.int64))
    return out, {"traced_regs": regs, "traced_smem": smem, "programs": programs}


def partition_latency() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(smid per block, offsets, latency[block, line])`` from ``dispatch.cu``: one block per
    SM, each timing an L2 hit on every probed line."""
    import torch

    from swizzlekit.kernels.cuda.launch import function, i32, launch, ptr
    from swizzlekit.kernels.cuda.nvrtc import compile_cuda

    major, minor = torch.cuda.get_device_capability()
    compiled = compile_cuda(Path(__file__).with_name("dispatch.cu").read_text(), ["l2_latency"],
                            arch=f"sm_{major}{minor}", filename="dispatch.cu")
    props = torch.cuda.get_device_properties(0)
    blocks = props.multi_processor_count
    smem = 200 * 1024                                  # one block per SM
    rng = np.random.default_rng(0)
    lines = rng.choice(BUFFER_BYTES // 128, LINES, replace=False)
    offsets = torch.tensor(lines * 32, dtype=torch.int32, device="cuda")    # in 4-byte words
    buf = torch.zeros(BUFFER_BYTES // 4, dtype=torch.int32, device="cuda")
    lat = torch.full((blocks, LINES), -1, dtype=torch.int64, device="cuda")
    smid = torch.full((blocks,), -1, dtype=torch.int32, device="cuda")
    fn = function(compiled, "l2_latency", smem)
    launch(fn, (blocks,), (32,), [ptr(buf), ptr(offsets), i32(LINES), ptr(lat), ptr(smid)], smem)
    torch.cuda.synchronize()
    return smid.cpu().numpy(), lines * 128, lat.cpu().numpy()


def run(out: Path) -> Path:
    """Every trace of :data:`TRACES` and the partition probe; writes ``dispatch.npz`` and
    ``dispatch.json`` to ``out``."""
    from swizzlekit.gpus import residency
    from swizzlekit.kernels.triton.table_gemm import DTYPES, resources
    from swizzlekit.lab.cluster import provenance

    out.mkdir(parents=True, exist_ok=True)
    arrays, runs = {}, []
    smid, lines, lat = partition_latency()
    arrays.update(latency_smid=smid, latency_lines=lines, latency=lat)
    for i, t in enumerate(TRACES):
        traces, compiled = trace(t)
        for rep, tr in enumerate(traces):
            arrays[f"trace_{i}_{rep}"] = tr
        res = resources(t.config, DTYPES[t.dtype][1], t.persistent, shape=t.shape,
                        programs=compiled["programs"])
        threads = res["threads"]
        runs.append({"index": i, "name": name(t), **asdict(t), "split": half(t), **res,
                     **compiled,
                     "traced_ctas_per_sm": residency("h200", threads, compiled["traced_regs"],
                                                     compiled["traced_smem"])})
    np.savez_compressed(out / "dispatch.npz", **arrays)
    meta = {"command": "swizzlekit lab dispatch --out DIR", "repeats": REPEATS, "lines": LINES,
            "columns": ["tile_m", "tile_n", "smid", "start_ns", "end_ns"], "runs": runs,
            **provenance()}
    (out / "dispatch.json").write_text(json.dumps(meta, indent=1))
    return out / "dispatch.npz"


# ------------------------------------------------------------------------------- analysis
def same_side(sides: np.ndarray, lags=(1, 2, 4, 8, 16)) -> dict[int, float]:
    """The share of CTA pairs ``lag`` apart in launch order that sit on the same L2 side.

    >>> same_side(np.array([0, 0, 1, 1, 0, 0, 1, 1]), lags=(1, 2))
    {1: 0.571, 2: 0.0}
    """
    return {lag: round(float(np.mean(sides[lag:] == sides[:-lag])), 3)
            for lag in lags if len(sides) > lag}


def analyze(folder: Path) -> dict:
    """The dispatch facts in ``folder/dispatch.npz`` and ``.json``:

    * ``l2_side_of_sm``: each SM's L2 side (0 is SM 0's side), from the latency matrix: its
      first principal component splits the SMs in two, and every line is fast from one side;
    * ``dispatch_order``: the SMs in the order the probe's blocks (one per SM) landed;
    * ``near_cycles``, ``far_cycles``: median L2-hit latency from the line's own side and
      from the other;
    * per traced run (first repeat): the most CTAs running at once against the residency, the
      spread of CTA durations, and :func:`same_side` in the first wave and after it;
    * ``cta_duration_cv``: the spread of CTA durations (standard deviation over mean, after
      the first wave where the run has two), the median over every repeat of the runs traced
      with one CTA per SM, and of those with more.
    """
    folder = Path(folder)
    data = np.load(folder / "dispatch.npz")
    meta = json.loads((folder / "dispatch.json").read_text())
    smid, lat = data["latency_smid"], data["latency"].astype(float)
    u = np.linalg.svd(lat - lat.mean(axis=0), full_matrices=False)[0][:, 0]
    side = np.zeros(len(smid), dtype=int)
    side[smid] = u > 0
    side ^= side[0]
    block_side = side[smid]
    home = lat[block_side == 0].mean(axis=0) < lat[block_side == 1].mean(axis=0)  # line -> 0?
    near = (block_side[:, None] == 0) == home[None, :]
    sms = len(smid)
    runs, cvs = [], ([], [])
    for r in meta["runs"]:
        traces = [data[f"trace_{r['index']}_{rep}"] for rep in range(REPEATS)]
        first = sms * r["traced_ctas_per_sm"]
        for t in traces:
            took = (t[:, 4] - t[:, 3]).astype(float)
            took = took[first:] if len(took) > 2 * first else took
            cvs[r["traced_ctas_per_sm"] > 1].append(took.std() / took.mean())
        tr = traces[0]
        starts, ends = tr[:, 3], tr[:, 4]
        events = np.concatenate([np.stack([starts, np.ones(len(tr))], 1),
                                 np.stack([ends, -np.ones(len(tr))], 1)])
        events = events[np.lexsort((events[:, 1], events[:, 0]))]
        sides = side[tr[:, 2]]
        slots = sms * r["ctas_per_sm"]
        dur = (ends - starts) / 1e3
        runs.append({"name": r["name"], "ctas_per_sm": r["ctas_per_sm"],
                     "traced_ctas_per_sm": r["traced_ctas_per_sm"],
                     "most_at_once": int(np.cumsum(events[:, 1]).max()),
                     "duration_us_p10_p50_p90": [round(float(x), 2)
                                                 for x in np.percentile(dur, [10, 50, 90])],
                     "same_side_first_wave": same_side(sides[:slots]),
                     "same_side_later": same_side(sides[slots:]) if len(tr) > slots + 16 else {}})
    return {"l2_side_of_sm": "".join(map(str, side)), "dispatch_order": tuple(int(x) for x in smid),
            "near_cycles": float(np.median(lat[near])), "far_cycles": float(np.median(lat[~near])),
            "cta_duration_cv": tuple(round(float(np.median(c)), 3) for c in cvs), "runs": runs}
