"""Fill the Triton cache for a shard of the L2 sweep before timing it on 1 and on 2 GPUs.

    python3 docs/data/cluster/warm_l2_cache.py 0/3

Launches every kernel variant the shard's runs use (tile config, element type, persistent
or not) once, at a small shape with the same residues mod 16 as the real one (Triton
specializes its integer arguments on divisibility by 16), so that neither sweep pays for
compiling and the 2-GPU sweep's workers do not each compile the same kernels.
"""

import dataclasses
import sys

import torch

from swizzlekit.kernels.triton.table_gemm import DTYPES, resources
from swizzlekit.lab.experiments import l2_sweep


def small(v: int) -> int:
    return 256 + v % 16


def main(spec: str) -> int:
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    seen = set()
    for run in l2_sweep.shard(l2_sweep.plan(), spec):
        r = dataclasses.replace(run, M=small(run.M), N=small(run.N), K=small(run.K),
                                order="row", params="{}")
        variant = (r.shape, r.config, r.dtype, r.persistent)
        if variant in seen:
            continue
        seen.add(variant)
        a, b, _ = l2_sweep._operands(r)
        res = resources(r.config, DTYPES[r.dtype][1], r.persistent)
        fn, _ = l2_sweep._launcher(r, sms * res["ctas_per_sm"] if r.persistent else 0, a, b)
        fn()
        torch.cuda.synchronize()
    print("warmed", len(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
