"""TF32 on B K-major (copied) with C from registers against the autotuned ("plain") plan, each
forced by the switch ``matmul.C_REGS_ON`` (every shape here has 2048 rows or more, from which
``matmul_configs.c_regs_taken`` takes C from registers untimed; before 2026-11-27 the first
call timed the two at every M, ``first_call.pick_regs``, and kept either at some shapes from
run to run; this probe's data is what the rule rests on).
``2048``: the 2048-row shapes, under the default order and grouped(8) (grouped(16)
is the default since 2026-11-26, grouped(8) before; which of the two changes cost those
shapes 12% on the H100 was not measured). ``full``: every TF32 shape of the ``full`` suite
that takes C from registers, under the default order. ``narrow``, ``narrow_heldout``:
outputs of at most 512 columns from 2048 rows (not yet timed). Beside cuBLAS; the plan the
library's default call keeps is recorded.

    python3 docs/data/bench/tf32_2048/probe.py OUT.jsonl [2048|full|narrow|narrow_heldout ...]

Per shape: every run checked against float64 into a NaN-poisoned C first, then 5
interleaved, rotated replicates of do_bench medians (L2 flushed). Each forced call clears
the repeat-call route, so it takes the plan path every time (host time of the order of
0.1 ms, the same for both plans: 2048^3 is bound by it).
"""
import json
import sys

import torch
import triton

import swizzlekit.kernels.triton.matmul as mm
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.matmul import describe
from swizzlekit.lab.harness import checked_medians

torch.backends.cuda.matmul.allow_tf32 = True
SETS = {"2048": [(2048, 14336, 8192), (2048, 16384, 8192), (2048, 4096, 4096),
                 (2048, 2048, 2048)],
        "full": [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 11008, 4096),
                 (4096, 4096, 11008), (8192, 14336, 4096), (8192, 4096, 14336),
                 (16384, 8192, 8192), (4096, 28672, 8192), (4096, 8192, 28672),
                 (16384, 4096, 4096), (4096, 16384, 4096), (11008, 4096, 4096),
                 (3000, 5000, 4000), (32768, 1024, 4096), (16384, 2048, 8192),
                 (16384, 16384, 16384)],
        # narrow outputs (N <= 512) from 2048 rows, where the rule takes C from registers in
        # 128x256 tiles whatever N is: the two of the held-out draw of 2026-11-28 that ran
        # 0.60-0.63x cuBLAS there (../heldout_draw/h100_seed20261128/), then six drawn with
        # them (2026-11-28), before either plan was timed at any, to judge what they suggest
        "narrow": [(4736, 204, 9440), (4804, 133, 8661)],
        "narrow_heldout": [(8192, 256, 8192), (4096, 384, 14336), (6144, 160, 6144),
                           (16384, 512, 4096), (3000, 100, 5000), (2048, 320, 12288)]}
ORDERS = {"2048": {"default": None, "grouped8": 8}, "full": {"default": None},
          "narrow": {"default": None}, "narrow_heldout": {"default": None}}


def clear():
    for cache in (mm.PLANS, mm.ROUTES):
        cache.clear()


def forced(a, b, c, group, regs):
    """``matmul`` under grouped(``group``) (None: the default order) with the plan of C from
    registers (``regs``) or the plain plan."""
    args = ("grouped",) if group else ()
    kw = {"group": group} if group else {}

    def run():
        mm.ROUTES.clear()               # no repeat call's fast path: the plan path, which
        mm.C_REGS_ON = regs             # reads the switch
        matmul(a, b, *args, out=c, **kw)
        mm.C_REGS_ON = True
        return c
    return run


if __name__ == "__main__":
    with open(sys.argv[1], "a") as f:
        for name_set in sys.argv[2:] or ["2048"]:
            for M, N, K in SETS[name_set]:
                clear()
                torch.manual_seed(0)
                a = torch.randn(M, K, device="cuda")
                b = torch.randn(K, N, device="cuda")
                c = torch.empty(M, N, device="cuda")
                ref = a.double() @ b.double()
                for _ in range(2):               # the shipped call, as a repeat call runs it
                    matmul(a, b, out=c)
                kept = describe(a, b, out=c)
                runs = {"cublas": lambda: torch.matmul(a, b, out=c)}
                for name, group in ORDERS[name_set].items():
                    for regs in (True, False):
                        runs[f"{name}_{'regs' if regs else 'plain'}"] = forced(a, b, c, group,
                                                                               regs)

                def error(fn):
                    c.fill_(float("nan"))
                    out = fn()
                    torch.cuda.synchronize()
                    return float((out.double() - ref).norm() / ref.norm())
                res = checked_medians(runs, error, 1e-3, 5, warmup_ms=10, rep_ms=40)
                ms = res["ms"]
                plans = {}                       # each forced plan as a repeat call runs it
                for name, group in ORDERS[name_set].items():
                    args, kw = (("grouped",), {"group": group}) if group else ((), {})
                    for regs in (True, False):
                        mm.ROUTES.clear()
                        mm.C_REGS_ON = regs
                        for _ in range(2):
                            matmul(a, b, *args, out=c, **kw)
                        mm.C_REGS_ON = True
                        plans[f"{name}_{'regs' if regs else 'plain'}"] = describe(
                            a, b, *args, out=c, **kw)
                row = {"set": name_set, "shape": [M, N, K], **res, "shipped": kept,
                       "plans": plans, "gpu": torch.cuda.get_device_name(),
                       "torch": torch.__version__, "triton": triton.__version__}
                f.write(json.dumps(row, default=str) + "\n")
                f.flush()
                print(f"{M}x{N}x{K}: " + "  ".join(
                    f"{k} {v:.3f} ms ({ms['cublas'] / v:.3f}x)" for k, v in ms.items()
                    if "cublas" in ms) + (f"  BAD {res['bad']}" if res["bad"] else "")
                    + f"  shipped {kept and kept['config']}  "
                    + " ".join(f"{k}:{p and p['config']}{'/R' if p and p['c_registers'] else ''}"
                               for k, p in plans.items()), flush=True)
