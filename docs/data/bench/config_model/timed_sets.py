"""Which configs the default autotune times on the `full` suite's shapes, before and after the
session-23 refit of the config model (CPU only; output in timed_sets.txt):

    git show 6ac32c1:src/swizzlekit/data/tiles_model.json > /tmp/old_model.json
    python docs/data/bench/config_model/timed_sets.py /tmp/old_model.json > timed_sets.txt

A row whose timed set and order did not change runs as it ran in run 13.
"""
import json
import sys

from swizzlekit.kernels.triton import auto_order, choose
from swizzlekit.kernels.triton.explain import autotune_plan
from swizzlekit.lab.bench import SUITES

SHAPES = list(dict.fromkeys(SUITES["full"]))


def timed(params: dict) -> dict:
    choose.fitted = lambda: params
    auto_order.pick.cache_clear()
    out = {}
    for precision in ("bf16", "fp16", "fp8", "tf32"):
        for M, N, K in SHAPES:
            p = autotune_plan(M, N, K, precision)
            out[(precision, M, N, K)] = ({r.config for r in p.configs if r.timed}, p.order,
                                         sorted(p.order_params.items()), p.kernel)
    return out


before = timed(json.load(open(sys.argv[1])))
after = timed(json.loads(choose.FITTED_PATH.read_text()))
changed = {}
for key in before:
    if before[key] != after[key]:
        changed.setdefault((key[0], key[1] <= 512), []).append(key)
        print(*key, "dropped", sorted(before[key][0] - after[key][0]), "added",
              sorted(after[key][0] - before[key][0]),
              "" if before[key][1:] == after[key][1:] else f"order {before[key][1:3]} -> "
                                                           f"{after[key][1:3]}")
for precision in ("bf16", "fp16", "fp8", "tf32"):
    for small in (True, False):
        rows = sum(1 for k in before if k[0] == precision and (k[1] <= 512) == small)
        print(f"{precision} M {'<=' if small else '>'} 512: {len(changed.get((precision, small), []))}"
              f" of {rows} rows changed")
