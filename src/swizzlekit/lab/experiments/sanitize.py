"""Run every CUDA rung once on a ragged and a square shape, for compute-sanitizer.

``compute-sanitizer --tool memcheck --error-exitcode 1 python -m swizzlekit.lab.experiments.sanitize``
(and ``--tool racecheck``): an out-of-bounds access or a shared-memory race makes it fail.
"""

import sys


def main() -> int:
    import torch

    from swizzlekit.kernels.cuda.ladder import RUNGS, run

    for m, n, k in ((129, 257, 65), (256, 256, 256)):
        a = torch.randn(m, k, device="cuda")
        b = torch.randn(k, n, device="cuda")
        for r in RUNGS:
            run(r.name, a, b)
    torch.cuda.synchronize()
    print(f"ran {len(RUNGS)} kernels on 2 shapes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
