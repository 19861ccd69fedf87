"""The ragged-pairs suite: each ragged shape beside its tile-aligned neighbour."""

from swizzlekit.lab.bench import SUITES, ragged_pair_ratios


def test_every_pair_is_a_ragged_shape_and_its_aligned_neighbour():
    shapes = SUITES["ragged-pairs"]
    pairs = list(zip(shapes[::2], shapes[1::2]))
    assert len(pairs) >= 10 and len(set(shapes)) == len(shapes)
    for ragged, aligned in pairs:
        assert ragged != aligned
        assert aligned[0] % 128 == 0 and aligned[1] % 128 == 0 and aligned[2] % 64 == 0
        assert all(r <= a < r + step for r, a, step in zip(ragged, aligned, (128, 128, 64)))
    ms = [r[0] for r, _ in pairs if r[0] % 128]
    assert min(ms) <= 100 and max(ms) >= 10000          # ragged M from 100 to 10000


def test_ratios_pair_up_by_precision_and_skip_what_was_not_timed():
    shapes = SUITES["ragged-pairs"]
    rows = [{"M": m, "N": n, "K": k, "precision": p, "kernel": "triton", "tflops": 100.0 + i}
            for i, (m, n, k) in enumerate(shapes[:4]) for p in ("bf16", "fp8")]
    rows.append({**rows[0], "kernel": "cublas", "tflops": 1.0})
    got = ragged_pair_ratios(rows)
    assert [(g["precision"], g["ragged"]) for g in got] == [
        ("bf16", shapes[0]), ("bf16", shapes[2]), ("fp8", shapes[0]), ("fp8", shapes[2])]
    assert got[0]["ratio"] == round(100 / 101, 3)
