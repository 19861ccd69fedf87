"""Shapes drawn by a seeded rule, fixed before they are timed, to judge the GEMM as a new user
would on shapes no rule was tuned on: M, N and K log-uniform in [128, 16384] with M·N·K in
[2^30, 2^40]; every other shape rounded to a multiple of 128 (M, N) and 64 (K), the others
left as drawn (ragged). Prints the ``--mnk`` arguments of ``swizzlekit bench``.

    python3 docs/data/bench/heldout_draw/draw.py SEED COUNT
    swizzlekit bench $(python3 docs/data/bench/heldout_draw/draw.py 20261126 12) \\
        --precision bf16 --kernel triton --out DIR
"""
import math
import random
import sys


def draw(seed: int, count: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    out: list[tuple[int, int, int]] = []
    while len(out) < count:
        m, n, k = (round(math.exp(rng.uniform(math.log(128), math.log(16384))))
                   for _ in range(3))
        if not 2**30 <= m * n * k <= 2**40:
            continue
        if len(out) % 2 == 0:
            m, n, k = -(-m // 128) * 128, -(-n // 128) * 128, -(-k // 64) * 64
        out.append((m, n, k))
    return out


if __name__ == "__main__":
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    print(" ".join(f"--mnk {m}x{n}x{k}" for m, n, k in draw(seed, count)))
