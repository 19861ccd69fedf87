"""``lab tiles``' shape sets: the narrow set is the draw its comment states (fixed before it
was measured), narrow in both operands, below the aligned copies, and new to the table."""

import numpy as np

from swizzlekit.kernels.triton.copies import PAD_MIN_MNK
from swizzlekit.lab.experiments.tiles import NARROW, SETS, SHAPES


def _draw(seed: int = 20261124, count: int = 16) -> list[tuple[int, int, int]]:
    rng, out = np.random.default_rng(seed), []
    while len(out) < count:
        M = int(round(2 ** rng.uniform(4, 9)))
        N = int(round(2 ** rng.uniform(10, 14)))
        K = int(round(2 ** rng.uniform(10, 13.5)))
        if N % 16 and K % 16 and M * N * K < 2**31:
            out.append((M, N, K))
    return out


def test_narrow_set_is_the_stated_draw():
    assert NARROW == _draw()


def test_narrow_set_is_narrow_uncopied_and_new():
    assert all(n % 16 and k % 16 and 16 <= m <= 512 and m * n * k < PAD_MIN_MNK
               for m, n, k in NARROW)
    assert not {s[:3] for s in SHAPES} & set(NARROW)
    assert SETS["table"] is SHAPES
    assert SETS["narrow"] == [(*s, "narrow") for s in NARROW]


def test_cli_refuses_an_unknown_set(capsys, tmp_path):
    from swizzlekit.cli import main

    assert main(["lab", "tiles", "--out", str(tmp_path), "--set", "nope"]) == 2
    assert "choose one of: table, narrow" in capsys.readouterr().err
