"""The config model (swizzlekit.kernels.triton.choose): its fit is reproducible from the
committed table, its figures are the ones docs/data/bench/JOURNAL.md quotes, its predictions behave
as times do, and the autotuner's hook computes what predict does."""

import math

import pytest
from hypothesis import given, settings, strategies as st

from swizzlekit.kernels.triton import choose
from swizzlekit.kernels.triton.configs import autotune_mode
from swizzlekit.errors import SwizzleKitError

CONFIGS = sorted({name.split("/", 2)[2] for name in choose.fitted()["efficiency"]
                  if name.startswith("16bit/")})


shapes = st.tuples(st.integers(1, 20000), st.integers(1, 20000), st.integers(1, 20000))


@settings(max_examples=200, deadline=None)
@given(shapes, st.sampled_from(CONFIGS), st.sampled_from(["16bit", "tf32", "fp8"]),
       st.booleans(), st.booleans())
def test_predictions_are_finite_positive_and_grow_with_the_problem(shape, config, fam, na, nb):
    M, N, K = shape
    kernel = {"fp8": "fp8_pointer"}.get(fam, "pointer")
    t = choose.predict(M, N, K, fam, kernel, config, narrow_a=na, narrow_b=nb)
    assert math.isfinite(t) and t > 0
    for bigger in ((2 * M, N, K), (M, 2 * N, K), (M, N, 2 * K)):
        assert choose.predict(*bigger, fam, kernel, config, narrow_a=na, narrow_b=nb) >= t
    # loading rows one element at a time never makes a call faster
    assert choose.predict(M, N, K, fam, kernel, config, narrow_a=True, narrow_b=True) >= t


def test_narrow_rows_exhaustively():
    """An operand is read along its unit stride; it is narrow where the other stride is no
    multiple of 16 elements, or where it has no unit stride."""
    for major in range(1, 70):
        for minor in range(1, 70):
            want = (major % 16 != 0 if minor == 1 else minor % 16 != 0 if major == 1 else True)
            assert choose._narrow(major, minor) == want


class _Tensor:
    def __init__(self, size):
        self.size = size

    def element_size(self):
        return self.size


@pytest.mark.parametrize("elem, precision, fam", [(2, "tf32", "16bit"), (4, "tf32", "tf32"),
                                                  (1, "tf32", "fp8")])
def test_perf_model_hook_is_predict(elem, precision, fam):
    """What Triton's autotuner passes (named arguments, the call's constexprs, one config's
    all_kwargs) gives the same seconds as predict."""
    kernel = "fp8_pointer" if fam == "fp8" else "pointer"
    kw = dict(a_ptr=_Tensor(elem), M=300, N=2001, K=1999, stride_am=1999, stride_ak=1,
              stride_bk=2001, stride_bn=1, PRECISION=precision, ORDER="grouped", P=8,
              BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, SWAP_AB=False, num_warps=8, num_stages=4,
              num_ctas=1)
    got = choose.perf_model(kernel)(**kw)
    want = choose.predict(300, 2001, 1999, fam, kernel, "128x128x64/s4/w8", narrow_a=True,
                          narrow_b=True)
    assert got == want


def test_autotune_mode_at_the_door():
    assert autotune_mode(None) == "model" and autotune_mode("full") == "full"
    with pytest.raises(SwizzleKitError, match="model, full, 0"):
        autotune_mode("yes")


def test_a_flattened_config_ranks_just_ahead_of_its_twin_until_fitted():
    """A ``/flat`` config the table lacks is its twin's time times FLAT_AHEAD; once the fit
    has an efficiency of its own, that one counts."""
    twin = "128x256x64/s3/w8"
    unfitted = dict(choose.fitted())        # the table as it was before flattened configs
    unfitted["efficiency"] = {k: v for k, v in unfitted["efficiency"].items()
                              if not k.endswith("/flat")}
    for shape in [(4096, 4096, 4096), (8192, 8192, 512), (77, 1000, 776)]:
        t = choose.predict(*shape, "16bit", "tma", twin, params=unfitted)
        flat = choose.predict(*shape, "16bit", "tma", twin + "/flat", params=unfitted)
        assert flat == t * choose.FLAT_AHEAD
    p = dict(choose.fitted())
    p["efficiency"] = {**p["efficiency"], f"16bit/tma/{twin}/flat": 0.05}
    slow = choose.predict(8192, 8192, 8192, "16bit", "tma", twin + "/flat", params=p)
    assert slow > choose.predict(8192, 8192, 8192, "16bit", "tma", twin, params=p)
    assert choose._parse(twin + "/flat") == (128, 256, 64, 3, 8, False)


@pytest.mark.parametrize("kw, message", [({"k": 0}, "k must be at least 1"),
                                         ({"k": 2.0}, "k must be an integer"),
                                         ({"flat": -1}, "flat must be at least 0")])
def test_timed_names_bad_counts(kw, message):
    with pytest.raises(SwizzleKitError, match=message):
        choose.timed(["a/s3/w4"], False, **kw)
