"""cuBLAS's kernels on the shapes ours trails (one call each, for ncu's kernel names)."""
import torch
CASES = [((3000, 5000, 4000), "bf16"), ((3072, 5120, 4032), "bf16"), ((1024, 1024, 1024), "bf16"),
         ((4096, 4096, 4096), "tf32"), ((128, 14336, 4096), "fp8"), ((256, 4096, 4096), "fp8")]
torch.backends.cuda.matmul.allow_tf32 = True
for (M, N, K), p in CASES:
    if p == "fp8":
        a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn).T
        one = torch.ones((), device="cuda")
        torch._scaled_mm(a, b, one, one, out_dtype=torch.bfloat16, use_fast_accum=True)
    else:
        dt = torch.bfloat16 if p == "bf16" else torch.float32
        torch.matmul(torch.randn(M, K, device="cuda", dtype=dt), torch.randn(K, N, device="cuda", dtype=dt))
torch.cuda.synchronize()
