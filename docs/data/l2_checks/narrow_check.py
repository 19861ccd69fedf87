"""Ragged problems whose rows are loaded fewer than 16 bytes at a time, measured to judge a
lookup count by load width once (session 21, issue 10). Measured before anything was fitted
on them; unseen_ragged.py's runs of 8-byte and element loads are the ones fitted on.

* 4000x6000x3996 fp16: K a multiple of 4, not 8 (8-byte loads); A's rows off the sector;
* 5000x5000x2000 fp8 (B K-major): N a multiple of 8, not 16 (8-byte loads); rows 16 bytes off;
* 7000x2500x2500 fp8: K a multiple of 4, not 8 (4-byte loads); rows 4 bytes off;
* 2000x6000x5001 fp16: an odd K, loaded element by element.

    python3 docs/data/l2_checks/narrow_check.py --out DIR     # on the GPU: narrow_check.json
    python3 docs/data/l2_checks/narrow_check.py --table narrow_check.json
"""
import functools
import sys

import unseen_ragged

SHAPES = [((4000, 6000, 3996), "fp16", ["128x128x64", "64x64x64"]),
          ((5000, 5000, 2000), "fp8", ["128x128x128"]),
          ((7000, 2500, 2500), "fp8", ["128x128x128"]),
          ((2000, 6000, 5001), "fp16", ["128x128x64"])]
RUNS = [(shape, dt, c, o) for shape, dt, cfgs in SHAPES for c in cfgs
        for o in unseen_ragged.ORDERS]

if __name__ == "__main__":
    from _probe import main
    from swizzlekit.lab.experiments.l2_sweep import METRICS

    main(sys.argv[1:], script=__file__, metrics=METRICS,
         launch_all=functools.partial(unseen_ragged.launch_all, RUNS),
         table=unseen_ragged.table, keep=functools.partial(unseen_ragged.keep, runs=RUNS),
         name="narrow_check.json")
