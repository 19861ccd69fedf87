"""The first clock probe (its output: ``h100_first/clocks_after.json``): two runs of one
order (2048x16384x8192, 128x256x64, fp16: the column order twice, on two output buffers)
and the row order, timed alternately as the order tables time them (do_bench medians, L2
flushed), the SM clock read through NVML right after each replicate
(``torch.cuda.clock_rate``, MHz). ``clocks.py`` samples the clock during each replicate
instead.

Usage: python3 docs/data/order_times/identical/clocks_after.py OUT.json [REPLICATES]
"""
import json
import sys

import torch

from swizzlekit.lab.harness import median_ms

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe import PROBLEMS, runs_of  # noqa: E402


def main(out: str, replicates: int = 20) -> None:
    shape, config, same1, same2, other = PROBLEMS[1]
    runs = runs_of(shape, config, same1, same2, other)
    names = [n for n in runs if n.endswith("/C1") or n.endswith("/C2")][:2] + [list(runs)[-1]]
    rows = []
    for turn in range(replicates):
        for name in names[turn % len(names):] + names[:turn % len(names)]:
            ms = median_ms(runs[name], warmup_ms=10, rep_ms=40)
            rows.append({"turn": turn, "run": name, "ms": ms, "sm_mhz": torch.cuda.clock_rate(),
                         "temp_c": torch.cuda.temperature(), "power_mw": torch.cuda.power_draw()})
            print(rows[-1], flush=True)
    with open(out, "w") as f:
        json.dump({"gpu": torch.cuda.get_device_name(), "shape": shape, "config": config,
                   "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20)
