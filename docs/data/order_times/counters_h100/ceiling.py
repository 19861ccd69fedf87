"""How far the H100's order times follow its measured counters: the time model's form with
ncu's counters (``src/swizzlekit/data/l2_sweep_h100.csv``, ``l2_fresh_h100.csv``, three H100
cards, 2026-11-27) in place of the L2 model's predictions, fitted on the fit half of the
H100's order tables and judged on the held-out half and the fresh set:

    t = sum over waves of (c_w^p + d_w^p + l_w^p)^(1/p)
    c_w: compute (one efficiency per element size), d_w: DRAM bytes over 3.35 TB/s x share,
    l_w: L2 sectors the SMs read (lts__t_sectors_srcunit_tex_op_read) x 32 B over l2bw

with DRAM bytes from the L2 model or from ncu, and with or without the L2 term; no family
factors. The grid: p, the 16-bit efficiency, fp8's and fp32's ratios to it, share, l2bw.
A model that predicted these counters exactly would do no better in this form.

    python3 docs/data/order_times/counters_h100/ceiling.py     (output: ceiling.txt)
"""
import itertools

import numpy as np

from swizzlekit import compare_time as ct
from swizzlekit.cta.timing import _peak, time_parameters
from swizzlekit.data import FOLDER
from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES
from swizzlekit.lab.records import L2SweepRow, read_csv

MEASURED = {r.key(): r for name in ("l2_sweep_h100.csv", "l2_fresh_h100.csv")
            for r in read_csv(FOLDER / name, L2SweepRow)}
PAR = time_parameters("h100-sxm")


def terms(group, eff, share, ncu_dram):
    """Per run of ``group``: its counters row, its waves, and per wave its compute and DRAM
    times (DRAM bytes from the L2 model, or scaled to ncu's with ``ncu_dram``)."""
    for r, pred in group:
        s = MEASURED[(r.M, r.N, r.K, r.config, r.dtype, r.order, r.params, r.persistent)]
        w = np.array(pred.per_wave_dram_read_bytes, float)
        n = len(w)
        if ncu_dram and w.sum():
            w = w * s.dram_read_bytes / w.sum()
        eb = ELEM_BYTES[r.dtype]
        c = 2 * r.M * r.N * r.K / n / (_peak(PAR["peak_tflops"], eb) * eff[eb])
        d = (w + pred.dram_write_bytes / n) / (PAR["dram_gbps"] * 1e9 * share)
        yield s, n, c, d


def times(group, eff, share, l2bw, p, ncu_dram):
    out = []
    for s, n, c, d in terms(group, eff, share, ncu_dram):
        l2 = s.tex_read_sectors * 32 / n / l2bw if l2bw else 0 * d
        out.append(((c ** p + d ** p + l2 ** p) ** (1 / p)).sum())
    return np.array(out)


def judge(part, *args):
    errs, regret = [], []
    for group in ct._problems(ct.runs("h100", part)):
        m, t = np.array([r.ms for r, _ in group]), times(group, *args)
        errs += list(np.abs(t / t.min() - m / m.min()))
        regret.append(m[np.argmin(t)] / m.min() - 1)
    regret = np.array(regret)
    return (f"error mean {np.mean(errs) * 100:.2f} median {np.median(errs) * 100:.2f} worst "
            f"{np.max(errs) * 100:.1f}; fastest within 2% {np.mean(regret <= .02):.0%}, "
            f"within 5% {np.mean(regret <= .05):.0%}", np.mean(errs))


for ncu_dram, l2_term in itertools.product((False, True), (False, True)):
    best = None
    for p, e2, f8, f4, share, l2bw in itertools.product(
            (1.5, 2, 3, 4), np.geomspace(0.2, 1.2, 9), (1.5, 2.0), (0.2, 0.3), (1.0, 1.5, 2.0, 3.0),
            np.geomspace(5e12, 2e13, 7) if l2_term else (0,)):
        args = ({1: e2 * f8, 2: e2, 4: e2 * f4}, share, l2bw, p, ncu_dram)
        loss = judge("fit", *args)[1]
        if best is None or loss < best[0]:
            best = (loss, args)
    eff, share, l2bw, p, _ = best[1]
    print(f"DRAM from {'ncu' if ncu_dram else 'the L2 model'}, "
          f"{'with' if l2_term else 'without'} the L2 term: p {p}, efficiency "
          f"{ {k: round(float(v), 3) for k, v in eff.items()} }, share {share}, "
          f"l2bw {l2bw / 1e12:.1f} TB/s")
    for part in ("fit", "heldout", "fresh"):
        print(f"   {part:8s} {judge(part, *best[1])[0]}")
    for group in ct._problems(ct.runs("h100", "heldout")):
        m, t = np.array([r.ms for r, _ in group]), times(group, *best[1])
        if m[np.argmin(t)] / m.min() > 1.02:
            r = group[0][0]
            print(f"      held-out miss: {r.M}x{r.N}x{r.K} {r.config} {r.dtype}, "
                  f"{(m[np.argmin(t)] / m.min() - 1) * 100:.1f}% behind")
