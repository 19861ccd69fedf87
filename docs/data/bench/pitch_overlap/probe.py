"""Does B's pitched copy hide behind the GEMM if C is made in two column halves?

3000x5000x4000 bf16 (B's rows 10,000 bytes apart, so a TMA call reads B from a pitched
copy first, ``kernels/triton/copies.py``) runs 0.84x cuBLAS on the H100: the copy costs
most of what it saves. Here C is made in two column halves, each from its own pitched copy
of B's columns; the second half's copy runs on a side stream while the first half's GEMM
runs. Variants, each checked against float64 (both halves), then timed in 5 interleaved,
rotated replicates of do_bench medians (L2 flushed), us:

* ``cublas``: ``A @ B``;
* ``library``: ``swizzlekit.kernels.matmul(A, B)`` (one pitched copy of B, one GEMM);
* ``halves``: both halves' copies and GEMMs on one stream (what splitting costs alone);
* ``halves, side stream``: the second half's copy on a side stream, overlapping the first
  half's GEMM;
* ``one copy, two GEMMs``: one pitched copy of B, the two halves' GEMMs on its column views.

The halves' C are two tensors (not written into one C: an upper bound on what the split
could gain). Usage, on a GPU: ``python3 docs/data/bench/pitch_overlap/probe.py OUT.json``.
"""
import json
import sys

import torch
import triton

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.copies import _pitched

M, N, K, SPLIT = 3000, 5000, 4000, 2560
REPLICATES = 5


def main(out: str) -> None:
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    ref = a.double() @ b.double()
    side = torch.cuda.Stream()

    def halves():
        return matmul(a, _pitched(b[:, :SPLIT])), matmul(a, _pitched(b[:, SPLIT:]))

    def halves_side():
        done = torch.cuda.Event()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            b2 = _pitched(b[:, SPLIT:])
            done.record(side)
        c1 = matmul(a, _pitched(b[:, :SPLIT]))
        torch.cuda.current_stream().wait_event(done)
        b2.record_stream(torch.cuda.current_stream())
        return c1, matmul(a, b2)

    def one_copy():
        bp = _pitched(b)
        return matmul(a, bp[:, :SPLIT]), matmul(a, bp[:, SPLIT:])

    variants = {"cublas": lambda: (a @ b,), "library": lambda: (matmul(a, b),),
                "halves": halves, "halves, side stream": halves_side,
                "one copy, two GEMMs": one_copy}
    checks = {}
    for name, f in variants.items():
        cs = f()
        torch.cuda.synchronize()
        got = torch.cat([c.double() for c in cs], dim=1)
        err = float(((got - ref).abs() / (ref.abs() + 1.0)).max())
        checks[name] = err
        assert err < 2e-2, (name, err)
    times = {name: [] for name in variants}
    names = list(variants)
    for rep in range(REPLICATES):
        for name in names[rep % len(names):] + names[:rep % len(names)]:
            times[name].append(triton.testing.do_bench(variants[name], warmup=25, rep=100))
    med = {n: sorted(t)[len(t) // 2] * 1e3 for n, t in times.items()}
    result = {"shape": [M, N, K], "split": SPLIT, "device": torch.cuda.get_device_name(),
              "torch": torch.__version__, "triton": triton.__version__,
              "max_rel_err": checks, "us_replicates": {n: [x * 1e3 for x in t]
                                                       for n, t in times.items()},
              "us_median": med, "x_cublas": {n: med["cublas"] / v for n, v in med.items()}}
    json.dump(result, open(out, "w"), indent=1)
    for n in names:
        print(f"{n:22s} {med[n]:8.1f} us  x cuBLAS {med['cublas'] / med[n]:.3f}  "
              f"(max rel err {checks[n]:.1e})")


if __name__ == "__main__":
    main(sys.argv[1])
