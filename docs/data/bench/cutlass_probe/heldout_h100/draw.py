"""The held-out shapes of the clustered route, drawn after its rule was written: 10 bf16
shapes with M from 1024 to 8192, N a multiple of 8 but not of 32 from 1000 to 12000 (B's rows
off 64-byte boundaries), K a multiple of 8 from 1000 to 8192; prints `--mnk` arguments."""
import random

r = random.Random(20261127)
out = []
while len(out) < 10:
    M = r.randrange(1024, 8193)
    N = r.randrange(1000, 12001) // 8 * 8
    K = r.randrange(1000, 8193) // 8 * 8
    if N % 32:
        out.append(f"{M}x{N}x{K}")
print(" ".join("--mnk " + s for s in out))
