"""The kernel registry's ``describe`` hooks: each matmul spec describes the call its ``run``
makes, with the same flags (persistent, tma), and fp8 calls are not described."""

import pytest

from swizzlekit.kernels import KERNELS


@pytest.mark.parametrize("name,flags", [("triton", {}), ("triton_pointer", {"tma": False}),
                                        ("triton_persistent", {"persistent": True})])
def test_matmul_specs_describe_the_call_they_run(monkeypatch, name, flags):
    pytest.importorskip("torch")
    pytest.importorskip("triton")
    from swizzlekit.kernels.triton import matmul as mm

    seen = []
    monkeypatch.setattr(mm, "describe", lambda *args, **kw: seen.append((args, kw)) or "d")
    spec = KERNELS[name]
    assert spec.describe("a", "b", out="c", precision="ieee", order="hilbert", split_k=2) == "d"
    assert seen == [(("a", "b", "hilbert"),
                     dict(out="c", precision="ieee", split_k=2, **flags))]
    assert spec.describe("a", "b", out="c", scale_a=1, scale_b=1) is None   # fp8: not described
    assert len(seen) == 1


def test_only_matmul_specs_describe():
    assert sorted(k for k, spec in KERNELS.items() if spec.describe) == [
        "triton", "triton_persistent", "triton_pointer"]
