"""Rows of a ``swizzlekit bench`` log (its per-row lines) as dicts, for runs whose results
folders did not come back: suite, M, N, K, precision, kernel, tflops, vs_cublas, ok.

    python3 log_rows.py LOG [--pairs]     (--pairs: the ragged-pairs ratios)
"""
import re
import sys

from swizzlekit.lab.bench import ragged_pair_ratios

LINE = re.compile(r"^(\S+)\s+(\d+)x(\d+)x(\d+)\s+(\S+)\s+(\S+)\s.*?([\d.]+) TFLOP/s"
                  r"\s+([\d.]+)x\s+(\S+)$")


def rows(path):
    out = []
    for line in open(path):
        m = LINE.match(line.strip())
        if m:
            suite, M, N, K, prec, kernel, tflops, ratio, ok = m.groups()
            out.append(dict(suite=suite, M=int(M), N=int(N), K=int(K), precision=prec,
                            kernel=kernel, tflops=float(tflops), vs_cublas=float(ratio), ok=ok))
    return out


if __name__ == "__main__":
    got = rows(sys.argv[1])
    if "--pairs" in sys.argv:
        for p in ragged_pair_ratios(got):
            print(p)
    else:
        for r in got:
            print(r)
