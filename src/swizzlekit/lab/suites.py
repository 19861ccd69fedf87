"""The benchmark's shapes: named suites (``bench --suite``), shapes given one by one
(``bench --mnk``: :func:`shapes_of`, under suite :data:`MNK_SUITE`), and the price of
raggedness read from a ``ragged-pairs`` run (:func:`ragged_pair_ratios`). No torch, no GPU.

>>> [s for s in SUITES][:3]
['square', 'large-square', 'seed001']
>>> SUITES["seed001"][0]
(1024, 1024, 1024)
"""

from __future__ import annotations

from collections.abc import Iterable

from swizzlekit.errors import SwizzleKitError

__all__ = ["SUITES", "MNK_SUITE", "BENCH_MAX_MNK", "shapes_of", "ragged_pair_ratios"]

SUITES: dict[str, list[tuple[int, int, int]]] = {
    "square": [(n, n, n) for n in (256, 512, 1024, 2048, 4096, 8192, 16384)],
    "large-square": [(n, n, n) for n in (4096, 6144, 8192, 12288, 16384)],
    "seed001": [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (1024, 1024, 128)],
    "seed002": [(n, n, n) for n in (256, 512, 1024, 2048, 4096, 8192)],
    "llm": [(4096, 14336, 4096), (8192, 8192, 512), (16384, 2048, 8192), (4096, 4096, 14336),
            (8192, 28672, 8192)],
    "tall-wide": [(16384, 2048, 8192), (2048, 16384, 8192), (32768, 1024, 4096),
                  (1024, 32768, 4096)],
    # shapes where the L2 measurements saw the order matter (docs/cta.md); run with --order
    "order-effect": [(16384, 16384, 2048), (8192, 8192, 8192), (2048, 16384, 8192)],
    # decode-like calls (the M <= 512 part of "full"): where split-K decides
    "decode": ([(m, n, k) for m in (16, 32, 64, 128, 256, 512)
                for n, k in ((4096, 4096), (14336, 4096))]
               + [(m, 8192, 8192) for m in (16, 64, 256)]),
    # issue 13's suite: squares; LLM projections (hidden 4096/8192, FFN 11008/14336/28672,
    # 2048-16384 tokens, and transposes); decode-like M; ragged sizes; tall and wide
    "full": ([(n, n, n) for n in (1024, 2048, 4096, 8192, 16384)]
             + [(2048, 4096, 4096), (4096, 11008, 4096), (4096, 4096, 11008),
                (8192, 14336, 4096), (8192, 4096, 14336), (16384, 8192, 8192),
                (4096, 28672, 8192), (4096, 8192, 28672), (2048, 14336, 8192),
                (16384, 4096, 4096), (4096, 16384, 4096), (11008, 4096, 4096)]
             + [(m, n, k) for m in (16, 32, 64, 128, 256, 512)
                for n, k in ((4096, 4096), (14336, 4096))]
             + [(m, 8192, 8192) for m in (16, 64, 256)]
             + [(3000, 5000, 4000), (1999, 4097, 3001), (777, 4095, 1234), (5003, 2999, 1000)]
             + [(32768, 1024, 4096), (1024, 32768, 4096), (16384, 2048, 8192),
                (2048, 16384, 8192)]),
    # rows that are not 16-byte multiples, on both sides of matmul.COPY_MIN_MNK (2**28) and
    # PAD_MIN_MNK (2**31), and one aligned ragged shape (3000x5000x4000) to compare with
    "ragged": [(3000, 5000, 4000), (1999, 4097, 3001), (777, 4095, 1234), (5003, 2999, 1000),
               (2047, 2047, 2047), (4095, 4095, 4095), (129, 4097, 4099), (8191, 8191, 1025),
               (1537, 1025, 1029), (16, 8191, 8191), (1001, 1001, 1001)],
    # M = 512-1280 at long K, where the output's tiles pass from one wave on 132 SMs to the
    # next (docs/data/bench/ragged_m/: 600x4096x14336 ran 0.68x cuBLAS on the H100, 512 rows
    # 0.98x); none is in "full"
    "wave-edge": [(m, 4096, 14336) for m in (512, 600, 640, 768, 1024)]
                 + [(m, 14336, 4096) for m in (600, 768, 1201)],
    # each ragged shape, then its tile-aligned neighbour (M and N rounded up to 128, K to 64):
    # the price of raggedness is the ratio of their TFLOP/s (ragged_pair_ratios)
    "ragged-pairs": [shape for pair in (
        ((9000, 7000, 3000), (9088, 7040, 3008)), ((8960, 6912, 3001), (8960, 6912, 3008)),
        ((317, 4096, 14336), (384, 4096, 14336)), ((1201, 14336, 4096), (1280, 14336, 4096)),
        ((100, 4096, 4096), (128, 4096, 4096)), ((1000, 4096, 4096), (1024, 4096, 4096)),
        ((3000, 5000, 4000), (3072, 5120, 4032)), ((10000, 4096, 4096), (10112, 4096, 4096)),
        ((4000, 4000, 4000), (4096, 4096, 4032)), ((2500, 8192, 2048), (2560, 8192, 2048)),
        ((6000, 7000, 3000), (6016, 7040, 3008)), ((5003, 2999, 1000), (5120, 3072, 1024)))
        for shape in pair],
}


#: The suite name of shapes given one by one (``bench --mnk``), in results and charts.
MNK_SUITE = "mnk"
#: The largest M*N*K a shape given one by one may have: 2^44 (about 26000³), four times the
#: largest in :data:`SUITES` (16384³). Each is checked against a float64 product, whose
#: operands and result take 8 bytes an element on the GPU beside the run's own.
BENCH_MAX_MNK = 2**44


def shapes_of(mnk: Iterable) -> list[tuple[int, int, int]]:
    """Shapes given one by one, each ``(M, N, K)`` of positive integers with M*N*K at most
    :data:`BENCH_MAX_MNK`, in order, repeats dropped.

    >>> shapes_of([(3000, 5000, 4000), (2000, 5000, 4000), (3000, 5000, 4000)])
    [(3000, 5000, 4000), (2000, 5000, 4000)]
    >>> shapes_of([(32768, 32768, 32768)])
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: shape 32768x32768x32768 has M*N*K = 2^45.0, above the bench's limit of 2^44 (BENCH_MAX_MNK)
    """
    import math

    from swizzlekit.errors import check_ints

    if isinstance(mnk, (str, bytes)) or not isinstance(mnk, Iterable):
        raise SwizzleKitError(f"shapes must be a list of (M, N, K), got {mnk!r:.80}")
    out: list[tuple[int, int, int]] = []
    for shape in mnk:
        m, n, k = check_ints("shape", shape, 3)
        if m * n * k > BENCH_MAX_MNK:
            raise SwizzleKitError(f"shape {m}x{n}x{k} has M*N*K = 2^{math.log2(m * n * k):.1f}, "
                                  f"above the bench's limit of 2^44 (BENCH_MAX_MNK)")
        if (m, n, k) not in out:
            out.append((m, n, k))
    return out


def ragged_pair_ratios(rows, kernel: str = "triton") -> list[dict]:
    """Per precision and pair of the ``ragged-pairs`` suite timed in ``rows`` (BenchRow or
    dicts): the ragged shape's TFLOP/s over its aligned neighbour's, for ``kernel``.

    >>> rows = [{"M": m, "N": n, "K": k, "precision": "bf16", "kernel": "triton",
    ...          "tflops": t} for (m, n, k), t in zip(SUITES["ragged-pairs"][:2], (540, 600))]
    >>> ragged_pair_ratios(rows)[0]["ratio"]
    0.9
    """
    get = (lambda r, k: r[k]) if rows and isinstance(rows[0], dict) else getattr
    tflops = {(int(get(r, "M")), int(get(r, "N")), int(get(r, "K")), get(r, "precision")):
              float(get(r, "tflops")) for r in rows if get(r, "kernel") == kernel}
    shapes = SUITES["ragged-pairs"]
    out = []
    for prec in dict.fromkeys(key[3] for key in tflops):
        for ragged, aligned in zip(shapes[::2], shapes[1::2]):
            if (*ragged, prec) in tflops and (*aligned, prec) in tflops:
                out.append({"precision": prec, "ragged": ragged, "aligned": aligned,
                            "ratio": round(tflops[(*ragged, prec)] / tflops[(*aligned, prec)],
                                           3)})
    return out
