"""bf16 at decode-like M, swapped: Cᵀ = Bᵀ Aᵀ with both operands from shared memory (16-bit
wgmma takes transposed operands), with TMA loads (swap_bf16) and with pointer loads (swap_ptr),
against cuBLAS and the library's matmul (pointer loads by default at these sizes, and
tma=True). Prints TFLOP/s (do_bench median, L2 flushed) and relative errors against float64;
writes bf16_swap_ptr_probe.json under $OUT. Run from the repository root on the GPU (session
12). Its first form, without swap_ptr (bf16_swap_probe.py as committed in e4358af), wrote
bf16_swap_probe.json. The grouped order comes from swizzlekit.cta.triton.grouped; the runs
used an inline copy of the same arithmetic."""
import json, os, sys, time
import torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor
from triton.testing import do_bench
sys.path.insert(0, "src")
from swizzlekit.cta.triton import grouped
from swizzlekit.kernels.triton.matmul import matmul

SWAP = [(16, 128, 128, 4, 4), (32, 128, 128, 4, 4), (16, 64, 256, 4, 4), (32, 64, 128, 5, 4),
        (64, 64, 128, 4, 4), (64, 128, 64, 5, 4), (16, 128, 64, 6, 4), (32, 128, 64, 6, 4),
        (16, 256, 64, 4, 8), (64, 256, 64, 4, 8)]


def blocks(nargs):
    nargs["a_desc"].block_shape = [nargs["BM"], nargs["BK"]]
    nargs["b_desc"].block_shape = [nargs["BK"], nargs["BN"]]
    nargs["c_desc"].block_shape = [nargs["BM"], nargs["BN"]]


@triton.autotune([triton.Config({"BM": m, "BN": n, "BK": k}, num_stages=s, num_warps=w)
                  for m, n, k, s, w in SWAP], key=["M", "N", "K"])
@triton.jit
def swap_ptr(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
             BK: tl.constexpr):
    pm, pn = grouped(tl.program_id(0), tl.cdiv(M, BM), tl.cdiv(N, BN), 8)
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BN, BM), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(b.T, a.T, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * N + cn[None, :], acc.T.to(c_ptr.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.autotune([triton.Config({"BM": m, "BN": n, "BK": k}, num_stages=s, num_warps=w,
                                pre_hook=blocks) for m, n, k, s, w in SWAP], key=["M", "N", "K"])
@triton.jit
def swap_bf16(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
              BK: tl.constexpr):
    pm, pn = grouped(tl.program_id(0), tl.cdiv(M, BM), tl.cdiv(N, BN), 8)
    acc = tl.zeros((BN, BM), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([k * BK, pn * BN])
        acc = tl.dot(b.T, a.T, acc)
    c_desc.store([pm * BM, pn * BN], acc.T.to(c_desc.dtype))


SHAPES = [(16, 4096, 4096), (32, 4096, 4096), (64, 4096, 4096), (128, 4096, 4096),
          (256, 4096, 4096), (512, 4096, 4096), (64, 8192, 8192), (256, 8192, 8192),
          (16, 14336, 4096)]
out = []
for M, N, K in SHAPES:
    g = torch.Generator(device="cuda").manual_seed(M + N + K)
    a = torch.randn(M, K, device="cuda", generator=g).bfloat16()
    b = torch.randn(K, N, device="cuda", generator=g).bfloat16()
    ref = a.double() @ b.double()
    c = torch.full((M, N), float("nan"), device="cuda", dtype=a.dtype)
    d = [TensorDescriptor(t, list(t.shape), list(t.stride()), [16, 16]) for t in (a, b, c)]
    grid = lambda m: (triton.cdiv(M, m["BM"]) * triton.cdiv(N, m["BN"]),)  # noqa: E731
    row = {"shape": f"{M}x{N}x{K}"}
    t0 = time.time()
    swap_bf16[grid](*d, M, N, K)
    torch.cuda.synchronize()
    row["swap_bf16_cfg"], row["swap_bf16_tune_s"] = str(swap_bf16.best_config), round(time.time() - t0, 1)
    fns = {"cublas": lambda: torch.matmul(a, b), "lib": lambda: matmul(a, b),
           "lib_tma": lambda: matmul(a, b, tma=True),
           "swap_bf16": lambda: (swap_bf16[grid](*d, M, N, K), c)[1],
           "swap_ptr": lambda: (swap_ptr[grid](a, b, c, M, N, K), c)[1]}
    for name, fn in fns.items():
        y = fn()
        torch.cuda.synchronize()
        row[name + "_err"] = f"{((y.double() - ref).norm() / ref.norm()).item():.1e}"
        row[name] = round(2 * M * N * K / do_bench(fn, warmup=25, rep=100, return_mode="median") / 1e9, 1)
    print(json.dumps(row), flush=True)
    out.append(row)
json.dump(out, open(os.path.join(os.environ.get("OUT", "/tmp"), "bf16_swap_ptr_probe.json"), "w"), indent=1)
