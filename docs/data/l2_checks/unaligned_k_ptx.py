"""Session 9's unaligned-K check (docs/cta.md): compile the order-table GEMM for sm_90 on the
CPU with and without Triton's divisibility-by-16 specialization of M, N, K and the strides,
and count its global loads in the PTX. Run with the Triton of CI (3.9), no GPU needed:
python3 docs/data/l2_checks/unaligned_k_ptx.py"""
import triton, re, sys
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from swizzlekit.kernels.triton.table_gemm import order_table_gemm
names = ["a_ptr","b_ptr","c_ptr","order_ptr","M","N","K","stride_am","stride_ak","stride_bk","stride_bn","stride_cm","stride_cn"]
def go(div, bm=128,bn=128,bk=64, dt="fp16"):
    sig = {n: ("*"+dt if n in ("a_ptr","b_ptr") else "*fp16" if n=="c_ptr" else "*i32" if n=="order_ptr" else "i32") for n in names}
    sig.update({"BLOCK_M":"constexpr","BLOCK_N":"constexpr","BLOCK_K":"constexpr"})
    const = {"BLOCK_M":bm, "BLOCK_N":bn, "BLOCK_K":bk, "stride_ak":1, "stride_bn":1, "stride_cn":1}
    sig.update({"stride_ak":"constexpr","stride_bn":"constexpr","stride_cn":"constexpr"})
    # the kernel as it was in session 9: without the launcher's alignment hint (ALIGN, added
    # 2026-11-23; tests/kernels/test_table_gemm_hints.py checks the hinted kernel)
    sig.update({"ALIGN":"constexpr","B_KMAJOR":"constexpr"}); const.update(ALIGN=1, B_KMAJOR=False)
    attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in ["a_ptr","b_ptr","c_ptr","order_ptr"] + div}
    src = ASTSource(order_table_gemm, sig, const, attrs)
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps":8, "num_stages":3})
    ptx = k.asm["ptx"]
    loads = re.findall(r"(ld\.global[\.\w]*|cp\.async\.[\w\.]+|cp\.async\.bulk[\w\.]*)", ptx)
    from collections import Counter
    return Counter(loads)
for div in (["M","N","K","stride_am","stride_bk","stride_cm"], ["M","N","stride_am","stride_bk","stride_cm"], ["M","K","stride_am","stride_cm"], ["K","stride_am","stride_cm"], []):
    print(div, go(div))
