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
    from swizzlekit.kernels.triton import scaled

    seen, scaled_seen = [], []
    monkeypatch.setattr(mm, "describe", lambda *args, **kw: seen.append((args, kw)) or "d")
    monkeypatch.setattr(scaled, "scaled_describe",
                        lambda *args, **kw: scaled_seen.append((args, kw)) or "s")
    spec = KERNELS[name]
    assert spec.describe("a", "b", out="c", precision="ieee", order="hilbert", split_k=2) == "d"
    assert seen == [(("a", "b", "hilbert"),
                     dict(out="c", precision="ieee", split_k=2, **flags))]
    # fp8, with scales: scaled_matmul's describe, the precision (fp8's own) not passed on
    assert spec.describe("a", "b", out="c", precision="tf32", order="row", scale_a=1,
                         scale_b=2, split_k=1) == "s"
    assert scaled_seen == [(("a", "b", 1, 2, "row"), dict(out="c", split_k=1, **flags))]
    assert len(seen) == 1


def test_only_matmul_specs_describe():
    assert sorted(k for k, spec in KERNELS.items() if spec.describe) == [
        "triton", "triton_persistent", "triton_pointer"]
