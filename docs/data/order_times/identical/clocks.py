"""Does the SM clock explain the replicate spread? Runs of one launch order (the probe's
problems: the same tiles in the same order under two names, with two output buffers) and
one other order, timed as the order tables time them (do_bench medians, L2 flushed, turns
rotated), each replicate with the mean SM clock sampled through NVML while it ran
(:func:`swizzlekit.lab.clocks.clocked_median_ms`, every 2 ms) and the clock read once
after it.

Usage: python3 docs/data/order_times/identical/clocks.py OUT.json [REPLICATES]
"""
import json
import sys

import torch

from swizzlekit.lab.clocks import clocked_median_ms
from swizzlekit.lab.harness import rotated

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe import PROBLEMS, runs_of  # noqa: E402


def main(out: str, replicates: int = 15) -> None:
    result = {"gpu": torch.cuda.get_device_name(), "problems": []}
    for shape, config, same1, same2, other in PROBLEMS:
        runs = runs_of(shape, config, same1, same2, other)
        names = [n for n in runs if not n.endswith("/C3")][:3] + [list(runs)[-1]]
        rows = []
        for turn in range(replicates):
            for name in rotated(names, turn):
                ms, mhz = clocked_median_ms(runs[name], warmup_ms=10, rep_ms=40)
                rows.append({"turn": turn, "run": name, "ms": ms, "sm_mhz_mean": mhz,
                             "sm_mhz_after": torch.cuda.clock_rate(),
                             "power_mw": torch.cuda.power_draw()})
        print(shape, config, len(rows), "replicates", flush=True)
        result["problems"].append({"shape": shape, "config": config, "rows": rows})
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 15)
