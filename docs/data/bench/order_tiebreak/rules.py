"""Pick rules on the library's GEMM: over the passes of ``probe.py`` (row, column,
grouped(8), grouped(16) timed in interleaved replicates; five on H100s, one on an H200), how
often each rule's order runs within 2% (and 5%) of the shape's fastest:

* ``fastest``: the predicted fastest (the first of least predicted time);
* ``grouped16``: always grouped(16);
* ``band`` and ``band 1``: grouped(16) unless another order is predicted faster by more
  than the band (``band``: the card's noise band, ``timing.ORDER_NOISE_PCT``; ``band 1``: 1%);
* ``tie``: the predicted fastest, grouped(16) where it ties (``rank.verdict``'s rule).

The time model on the pass's card's preset (``h100-sxm`` or ``h200``), for the config
``order="auto"`` sizes each call for on that card, as ``model_check.py`` does. No GPU needed:

    cd docs/data/bench/order_tiebreak && python3 rules.py > rules.txt
"""
import json
import sys
from pathlib import Path

import numpy as np

from swizzlekit.cta.timing import ORDER_NOISE_PCT

sys.path.insert(0, str(Path(__file__).parent))
from model_check import simulated  # noqa: E402  (the probed orders under the model)
from probe import ORDERS          # noqa: E402  (the four orders the probe times)

#: (folder, precision, file, preset) of each pass
PASSES = (("h100", "bf16", "matmul_orders.jsonl", "h100-sxm"),
          ("h100_second", "bf16", "matmul_orders.jsonl", "h100-sxm"),
          ("h100_third", "bf16", "matmul_orders.jsonl", "h100-sxm"),
          ("h100", "fp8", "scaled_orders.jsonl", "h100-sxm"),
          ("h100_second", "fp8", "scaled_orders.jsonl", "h100-sxm"),
          ("h200", "bf16", "matmul_orders.jsonl", "h200"))
RULES = ("fastest", "grouped16", "band", "band 1", "tie")


def predicted(M: int, N: int, K: int, precision: str, gpu: str) -> dict:
    """Each probed order's predicted time for the config the call sizes itself for."""
    return {n: s.time_s for n, s in simulated(M, N, K, precision, gpu)[2].items()}


def choice(rule: str, t: dict, default: str, gpu: str) -> str:
    best = min(t, key=t.get)
    if rule == "fastest":
        return best
    if rule == "grouped16":
        return default
    slack = (1e-9 if rule == "tie" else ORDER_NOISE_PCT[gpu] / 100 if rule == "band"
             else float(rule.split()[1]) / 100)
    return default if t[default] <= t[best] * (1 + slack) else best


def regrets(folder: str, precision: str, name: str, gpu: str) -> dict:
    out = {rule: [] for rule in RULES}
    default = next(n for n in ORDERS if "16" in n)
    for line in (Path(__file__).parent / folder / name).open():
        r = json.loads(line)
        t, ms = predicted(*r["shape"], precision, gpu), r["ms"]
        for rule in RULES:
            out[rule].append(ms[choice(rule, t, default, gpu)] / min(ms.values()) - 1)
    return out


if __name__ == "__main__":
    total = {gpu: {rule: [] for rule in RULES} for gpu in {p[3] for p in PASSES}}
    for folder, precision, name, gpu in PASSES:
        got = regrets(folder, precision, name, gpu)
        print(f"{folder} {precision}: " + "  ".join(
            f"{rule} {np.mean(np.array(v) <= .02):.2f}/{np.mean(np.array(v) <= .05):.2f}"
            for rule, v in got.items()))
        for rule, v in got.items():
            total[gpu][rule] += v
    for gpu in sorted(total):
        print(f"all {gpu} passes, within 2%: " + "  ".join(
            f"{rule} {int(np.sum(np.array(v) <= .02))}/{len(v)}" for rule, v in total[gpu].items()))
