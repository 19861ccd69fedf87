"""footprint.vec_hint: the 16-byte vector hint of the pointer-load kernels, checked on every
value pattern it reads; and the kernels under it in Triton's interpreter."""

import pytest
from hypothesis import given, strategies as st

from swizzlekit.kernels.triton.footprint import VEC_NAMES, vec_hint

torch = pytest.importorskip("torch")


@given(st.lists(st.integers(1, 2**20), min_size=len(VEC_NAMES), max_size=len(VEC_NAMES)),
       st.sampled_from([1, 2, 4]))
def test_vec_divides_every_value_and_is_given_only_where_triton_cannot_see_it(values, elem):
    args = dict(zip(VEC_NAMES, values))
    vec = vec_hint(args, elem)
    assert vec in (1, 16 // elem)
    assert all(v % vec == 0 for v in values)                 # the rewrite keeps every value
    whole = all(v % 16 == 0 for v in values)                 # Triton's own specialization
    assert (vec > 1) == (not whole and all(v % (16 // elem) == 0 for v in values) and elem < 16)


def test_vec_on_small_domain_exhaustively():
    """Every pattern of the five values' residues mod 16 (one fixed multiplier each)."""
    import itertools

    for residues in itertools.product((0, 4, 8, 3), repeat=len(VEC_NAMES)):
        args = {n: 16 * 37 + r for n, r in zip(VEC_NAMES, residues)}
        for elem in (1, 2, 4):
            want = 16 // elem if (any(residues) and all(r % (16 // elem) == 0
                                                           for r in residues)) else 1
            assert vec_hint(args, elem) == want, (residues, elem)


@pytest.mark.parametrize("dtype,precision,bound,n,k", [
    (torch.float16, "tf32", "float16", 40, 24),              # multiples of 8, not 16: VEC 8
    (torch.float16, "tf32", "float16", 56, 8),
    (torch.float32, "ieee", "ieee", 20, 12),                 # multiples of 4: VEC 4
])
def test_pointer_loads_under_the_hint_match_float64(dtype, precision, bound, n, k):
    """Pointer loads (tma=False) where VEC > 1, into a poisoned output: the hint's rewrite of
    strides, K and N keeps the product; a short K step and masked columns included."""
    from swizzlekit.kernels.triton import matmul as mm
    from swizzlekit.lab.verify import poisoned, random_operands, relative_error

    a, b = random_operands(48, n, k, dtype, "cpu")
    c = poisoned(48, n, dtype, "cpu")
    args = dict(stride_am=a.stride(0), stride_bk=b.stride(0), stride_cm=c.stride(0), K=k, N=n)
    assert vec_hint(args, a.element_size()) == 16 // a.element_size()
    mm.matmul(a, b, "grouped", out=c, precision=precision, tma=False, group=2)
    err = relative_error(c, a, b)
    assert err == err and err < mm.TOLERANCE[bound]


def test_the_config_model_counts_hinted_rows_as_vector_loads():
    """choose.both_narrow and the perf model's narrow terms follow the hint: rows 8 elements
    apart in 16-bit load 16 bytes at a time under VEC 8, rows of odd length element-wise."""
    from swizzlekit.kernels.triton import choose

    a = torch.empty(1, dtype=torch.float16)
    hinted = dict(a_ptr=a, stride_am=3000, stride_ak=1, stride_bk=5000, stride_bn=1,
                  stride_cm=5000, K=3000, N=5000)
    odd = dict(hinted, stride_am=3001, K=3001)
    assert not choose.both_narrow(hinted) and choose.both_narrow(odd)
    assert choose._narrow(5000, 1) and not choose._narrow(5000, 1, vec=8)
    assert choose._narrow(1, 5000, vec=8)          # a K-major operand: VEC does not touch it
    model = choose.perf_model("pointer", "h200")
    cfg = dict(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, num_stages=4, num_warps=4)
    assert model(M=64, **hinted, **cfg) < model(M=64, **dict(hinted, stride_cm=5001), **cfg)
