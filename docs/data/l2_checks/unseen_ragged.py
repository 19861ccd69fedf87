"""The rows-off-the-sector model on ragged problems in no table, measured after it was fitted
(session 21, issue 10): is `unaligned_lookups` a fact of rows off the sector, or of the one
fit-half shape it was fitted on?

Five problems of the order-table kernel, four orders each, one launch each under ncu
(``--clock-control none``), each checked against float64 with its output poisoned:

* 2500x7000x3000 fp16: both operands' rows 16 bytes off a sector, loaded 16 bytes at a time;
* 6000x3000x2004 fp16: K a multiple of 4 elements, not 8, so the kernel loads 8 bytes at a time;
* 3000x6000x5000 fp8 (B K-major): rows 8 bytes off, 8-byte loads;
* 4000x4000x4000 fp8: rows on the sector (a control: the parameter does not apply);
* 3000x5000x3999 fp16: an odd K, loaded element by element.

    python3 docs/data/l2_checks/unseen_ragged.py --out DIR     # on the GPU: unseen_ragged.json
    python3 docs/data/l2_checks/unseen_ragged.py --table unseen_ragged.json   # the comparison
"""
import sys

import numpy as np

SHAPES = [((2500, 7000, 3000), "fp16", ["128x128x64", "64x64x64"]),
          ((6000, 3000, 2004), "fp16", ["64x128x64", "256x128x64"]),
          ((3000, 6000, 5000), "fp8", ["128x128x128"]),
          ((4000, 4000, 4000), "fp8", ["128x128x128"]),
          ((3000, 5000, 3999), "fp16", ["64x128x64"])]
ORDERS = [("row", {}), ("grouped", {"group": 8}), ("hilbert", {}), ("random", {"seed": 0})]
RUNS = [(shape, dt, c, o) for shape, dt, cfgs in SHAPES for c in cfgs for o in ORDERS]


def launch_all(runs=RUNS):
    import torch

    from swizzlekit.kernels.triton.table_gemm import table_gemm, tile_config
    from swizzlekit.lab.experiments.l2_sweep import sweep_order
    from swizzlekit.lab.verify import random_operands

    for (M, N, K), dt, c, (name, params) in runs:
        cfg = tile_config(c)
        torch.manual_seed(1)
        a, b = random_operands(M, N, K, torch.float8_e4m3fn if dt == "fp8" else torch.float16,
                               "cuda", transpose_b=dt == "fp8")
        out = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        table_gemm(a, b, sweep_order(name, -(-M // cfg.bm), -(-N // cfg.bn), params), out=out,
                   config=c)
        ref = a.double() @ b.double()
        err = ((out.double() - ref).norm() / ref.norm()).item()
        assert err < 2e-2, (M, N, K, c, name, err)


def table(rows: list[dict]) -> str:
    from swizzlekit.cta.l2 import FITTED, simulate
    from swizzlekit.lab.experiments.l2_sweep import ELEM_BYTES, OUT_BYTES, row_bytes, sweep_order

    mus = (FITTED["unaligned_lookups"], 1.0)
    lines, errs = [], {mu: {} for mu in mus}
    for r in rows:
        bm, bn, bk = map(int, r["config"].split("x"))
        o = sweep_order(r["order"], -(-r["M"] // bm), -(-r["N"] // bn), r["params"])
        eb = ELEM_BYTES[r["dtype"]]
        pred = {mu: simulate(r["M"], r["N"], r["K"], o, tile=(bm, bn, bk), elem_bytes=eb,
                             out_bytes=OUT_BYTES[r["dtype"]], ctas_per_sm=r["ctas_per_sm"],
                             row_bytes=row_bytes(r["N"], r["K"], r["dtype"]),
                             unaligned_lookups=mu) for mu in mus}
        hit = r["lts__t_sector_hit_rate.pct"]
        sectors = (-(-r["M"] // bm) * -(-r["N"] // bn) * -(-r["K"] // bk) * (bm * bk + bk * bn)
                   * eb / 32)
        key = f"{r['M']}x{r['N']}x{r['K']} {r['dtype']}"
        for mu in mus:
            errs[mu].setdefault(key, []).append(pred[mu].l2_hit_rate - hit)
        lines.append(f"{key:20s} {r['config']:11s} {r['ctas_per_sm']} CTAs/SM {r['order']:8s} "
                     f"ncu {hit:5.1f}%  model {pred[mus[0]].l2_hit_rate:5.1f} (one lookup a "
                     f"sector: {pred[1.0].l2_hit_rate:5.1f})  near lookups / sectors read "
                     f"{r['lts__t_sectors_srcunit_tex_op_read.sum'] / sectors:4.2f}  DRAM "
                     f"{r['dram__bytes_read.sum'] / 1e6:6.1f} MB, model "
                     f"{pred[mus[0]].dram_read_bytes / 1e6:6.1f}")
    lines.append("hit-rate error, mean absolute (signed mean) per problem:")
    for key in errs[mus[0]]:
        lines.append(f"  {key:20s} " + "   ".join(
            f"unaligned_lookups {mu:g}: {np.abs(errs[mu][key]).mean():4.1f} "
            f"({np.mean(errs[mu][key]):+5.1f})" for mu in mus))
    for mu in mus:
        e = np.abs([x for v in errs[mu].values() for x in v])
        lines.append(f"all {len(e)} runs, unaligned_lookups {mu:g}: mean {e.mean():.2f}, "
                     f"worst {e.max():.1f}")
    return "\n".join(lines)


def keep(prof: list[dict], runs=RUNS) -> list[dict]:
    """Each launch's metrics, with the run and its kernel's residency, registers and spills."""
    from swizzlekit.kernels.triton.table_gemm import DTYPES, resources
    from swizzlekit.lab.experiments.l2_sweep import METRICS

    rows = []
    for ((M, N, K), dt, c, (name, params)), p in zip(runs, prof):
        res = resources(c, DTYPES[dt][1], shape=(M, N, K))
        rows.append({"M": M, "N": N, "K": K, "dtype": dt, "config": c, "order": name,
                     "params": params, "ctas_per_sm": res["ctas_per_sm"],
                     "regs": res["regs_per_thread"], "spills": res["spill_bytes"],
                     **{k: float(p[k]) for k in METRICS}})
    return rows


if __name__ == "__main__":
    from _probe import main
    from swizzlekit.lab.experiments.l2_sweep import METRICS

    main(sys.argv[1:], script=__file__, metrics=METRICS, launch_all=launch_all, table=table,
         keep=keep, name="unseen_ragged.json")
