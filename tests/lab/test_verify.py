"""The verification helpers (:mod:`swizzlekit.lab.verify`): their door refuses what they
cannot make or measure, with a library error, before torch sees it; and what they make is
what every GEMM check relies on (NaN where nothing was written, float64 references)."""

import math

import pytest

torch = pytest.importorskip("torch")

from swizzlekit.errors import SwizzleKitError  # noqa: E402
from swizzlekit.lab import verify  # noqa: E402

BAD_SIZES = [None, "3", 2.5, float("nan"), True, -1, 0, 2**40, [3]]
BAD_DTYPES = [None, "bf16", 2, torch.ones(1)]
CALLS = {
    "random_operands": lambda m=4, n=4, k=4, dtype=torch.float32, device="cpu":
        verify.random_operands(m, n, k, dtype, device),
    "poisoned": lambda m=4, n=4, dtype=torch.float32, device="cpu":
        verify.poisoned(m, n, dtype, device),
    "poisoned_view": lambda m=4, n=4, dtype=torch.float32, device="cpu":
        verify.poisoned_view(m, n, dtype, device),
    "scaled_operands": lambda m=4, n=4, k=16, device="cpu": verify.scaled_operands(m, n, k,
                                                                                   device),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("bad", BAD_SIZES, ids=repr)
def test_sizes_are_checked_at_the_door(name, bad):
    with pytest.raises(SwizzleKitError):
        CALLS[name](m=bad)


@pytest.mark.parametrize("name", ["random_operands", "poisoned", "poisoned_view"])
@pytest.mark.parametrize("bad", BAD_DTYPES, ids=repr)
def test_dtypes_are_checked_at_the_door(name, bad):
    with pytest.raises(SwizzleKitError):
        CALLS[name](dtype=bad)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_devices_are_checked_at_the_door(name):
    with pytest.raises(SwizzleKitError):
        CALLS[name](device="not a device")


@pytest.mark.parametrize("bad", [None, "3", 2.5, [[1.0]]], ids=repr)
def test_relative_error_takes_tensors(bad):
    a = torch.randn(3, 4)
    b = torch.randn(4, 5)
    for kwargs in ({"out": bad, "a": a, "b": b}, {"out": a @ b, "a": bad, "b": b},
                   {"out": a @ b, "ref": bad}):
        with pytest.raises(SwizzleKitError):
            verify.relative_error(**kwargs)


def test_what_the_helpers_make():
    """Fresh operands of the shapes and dtype asked; outputs all NaN; an unwritten output
    fails any bound (NaN), a written one is measured against float64."""
    torch.manual_seed(0)
    a, b = verify.random_operands(5, 7, 3, torch.float16, "cpu")
    assert a.shape == (5, 3) and b.shape == (3, 7) and a.dtype == b.dtype == torch.float16
    assert a.abs().sum() > 0 and b.abs().sum() > 0              # never zeros
    out = verify.poisoned(5, 7, torch.float16, "cpu")
    assert out.isnan().all()
    assert math.isnan(verify.relative_error(out, a, b))
    out.copy_(a.float() @ b.float())
    assert verify.relative_error(out, a, b) < 1e-2
