"""``swizzlekit reproduce seed002`` and ``seed001``: the seeds' own tables, measured here.

seed002: for each size, every rung of the SGEMM ladder: a float64 reference check, time,
GFLOP/s and speedup over the naive baseline, in the seed's console layout. seed001: the L2 hit
rate (ncu) and time of its two kernels at its sizes, beside the numbers the seed published.
"""

from __future__ import annotations

from pathlib import Path

from swizzlekit.seeds import SEED001_PUBLISHED, SEED002_LADDER as LADDER

__all__ = ["seed002", "seed001"]

def seed002(out_dir: Path, progress: bool = True, client=None) -> str:
    from swizzlekit.lab.bench import bench, runs

    rows = bench(runs(["seed002"], ["fp32"], LADDER), out_dir, progress=progress, client=client)
    lines = []
    for n in sorted({r.M for r in rows}):
        at = {r.kernel: r for r in rows if r.M == n}
        base = at["cuda_naive"].ms
        lines.append(f"--- matrix size: {n}x{n} x {n}x{n} ---")
        lines.append(f"reference: float64 product on the GPU; cuBLAS SGEMM "
                     f"{at['cublas'].ms:.4f} ms")
        for k in ["cublas"] + LADDER:
            r = at[k]
            lines.append(f"{k:20s} time {r.ms:9.4f} ms  {r.tflops * 1e3:9.1f} "
                         f"GFLOPS  check: {'passed' if r.ok else 'FAILED'} "
                         f"(rel. err {r.rel_err:.2e})  speedup over baseline "
                         f"{base / r.ms:.2f}")
    return "\n".join(lines)


def seed001(out_dir: Path, client=None) -> str:
    from swizzlekit.lab.bench import bench, profile_runs, runs

    kernels = ["cuda_seed001_smem", "cuda_seed001_swizzle"]
    plan = [r for r in runs(["seed001"], ["fp32"], kernels) if r.kernel != "cublas"]
    timed = {(r.kernel, r.M, r.N, r.K): r
             for r in bench(runs(["seed001"], ["fp32"], kernels), out_dir, progress=False,
                            client=client)}
    profiled = profile_runs(plan, out_dir, client=client)
    lines = [f"{'M x N x K':18s} {'kernel':22s} {'L2 hit % (ncu)':>15s} {'seed published':>15s} "
             f"{'time ms':>9s}"]
    for p in profiled:
        shape = (p.M, p.N, p.K)
        pub = SEED001_PUBLISHED[shape][0 if p.kernel == "cuda_seed001_smem" else 1]
        t = timed[(p.kernel, *shape)]
        lines.append(f"{'x'.join(map(str, shape)):18s} {p.kernel:22s} "
                     f"{p.l2_hit_rate_pct:>15} {pub:>15} {t.ms:>9.3f}")
    return "\n".join(lines)
