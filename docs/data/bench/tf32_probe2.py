"""TF32 with a row-major B, no K-major copy: (1) Triton's own in-smem transpose (TMA [BK,BN]),
(2) swap-AB (C^T = B^T A^T, A's tiles are K-major for wgmma's B), against the library's copy
path and cuBLAS. Prints TFLOP/s and relative error against float64."""
import os, sys, time, json
import torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor
from triton.testing import do_bench
sys.path.insert(0, "src")
from swizzlekit.kernels.triton.matmul import matmul

torch.backends.cuda.matmul.allow_tf32 = True

def cfgs(shapes, hook):
    return [triton.Config({"BM": bm, "BN": bn, "BK": bk}, num_stages=s, num_warps=w, pre_hook=hook)
            for bm, bn, bk, s, w in shapes]

def hook_plain(nargs):
    nargs["a_desc"].block_shape = [nargs["BM"], nargs["BK"]]
    nargs["b_desc"].block_shape = [nargs["BK"], nargs["BN"]]
    nargs["c_desc"].block_shape = [nargs["BM"], nargs["BN"]]

PLAIN = [(128, 128, 32, 3, 8), (128, 128, 32, 4, 8), (128, 256, 32, 3, 8), (128, 64, 64, 3, 4),
         (64, 128, 32, 4, 4), (128, 128, 64, 2, 8), (64, 64, 64, 4, 4)]
SWAP = [(16, 128, 64, 4, 4), (32, 128, 64, 3, 4), (64, 128, 32, 4, 4), (16, 64, 128, 3, 4),
        (32, 64, 64, 4, 4), (64, 64, 64, 3, 4), (128, 128, 32, 3, 8), (64, 256, 32, 3, 8),
        (128, 128, 32, 4, 4), (256, 128, 32, 3, 8), (128, 256, 32, 3, 8), (128, 128, 64, 3, 8),
        (64, 128, 64, 3, 4)]

@triton.jit
def _group(pid, tm, tn, G: tl.constexpr):
    width = G * tn
    gid = pid // width
    first = gid * G
    gm = tl.minimum(tm - first, G)
    return first + (pid % width) % gm, (pid % width) // gm

@triton.autotune(cfgs(PLAIN, hook_plain), key=["M", "N", "K"])
@triton.jit
def plain(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tm = tl.cdiv(M, BM); tn = tl.cdiv(N, BN)
    pm, pn = _group(tl.program_id(0), tm, tn, 8)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([k * BK, pn * BN])
        acc = tl.dot(a, b, acc, input_precision="tf32")
    c_desc.store([pm * BM, pn * BN], acc)

@triton.jit
def _rna(x):
    return tl.inline_asm_elementwise("cvt.rna.tf32.f32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                     is_pure=True, pack=1)

@triton.autotune(cfgs(SWAP, hook_plain), key=["M", "N", "K"])
@triton.jit
def swap_reg(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tm = tl.cdiv(M, BM); tn = tl.cdiv(N, BN)
    pm, pn = _group(tl.program_id(0), tm, tn, 8)
    acc = tl.zeros((BN, BM), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([k * BK, pn * BN])
        acc = tl.dot(b.T + 0.0, a.T, acc, input_precision="tf32")
    c_desc.store([pm * BM, pn * BN], acc.T)

@triton.autotune(cfgs(SWAP, hook_plain), key=["M", "N", "K"])
@triton.jit
def swap_rna(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tm = tl.cdiv(M, BM); tn = tl.cdiv(N, BN)
    pm, pn = _group(tl.program_id(0), tm, tn, 8)
    acc = tl.zeros((BN, BM), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([k * BK, pn * BN])
        acc = tl.dot(_rna(b.T), a.T, acc, input_precision="tf32")
    c_desc.store([pm * BM, pn * BN], acc.T)

@triton.autotune(cfgs(SWAP, hook_plain), key=["M", "N", "K"])
@triton.jit
def swap(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tm = tl.cdiv(M, BM); tn = tl.cdiv(N, BN)
    pm, pn = _group(tl.program_id(0), tm, tn, 8)
    acc = tl.zeros((BN, BM), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([k * BK, pn * BN])
        acc = tl.dot(b.T, a.T, acc, input_precision="tf32")
    c_desc.store([pm * BM, pn * BN], acc.T)

def run(kern, a, b):
    M, K = a.shape; N = b.shape[1]
    c = torch.full((M, N), float("nan"), device="cuda")
    d = [TensorDescriptor(t, list(t.shape), list(t.stride()), [16, 16]) for t in (a, b, c)]
    grid = lambda m: (triton.cdiv(M, m["BM"]) * triton.cdiv(N, m["BN"]),)
    f = lambda: kern[grid](*d, M, N, K)
    return f, c

SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (4096, 14336, 4096), (16, 14336, 4096),
          (64, 8192, 8192), (256, 4096, 14336), (512, 4096, 4096), (128, 8192, 8192),
          (3000, 5000, 4000)]
out = []
for M, N, K in SHAPES:
    g = torch.Generator(device="cuda").manual_seed(M + N + K)
    a = torch.randn(M, K, device="cuda", generator=g); b = torch.randn(K, N, device="cuda", generator=g)
    ref = (a.double() @ b.double())
    fl = 2 * M * N * K
    row = {"shape": f"{M}x{N}x{K}"}
    fns = {"cublas": lambda: torch.matmul(a, b)}
    for name, kern in (("swap_reg", swap_reg), ("swap_rna", swap_rna)):
        t0 = time.time()
        try:
            f, c = run(kern, a, b); f(); torch.cuda.synchronize()
            fns[name] = (lambda f=f, c=c: (f(), c)[1])
            row[name + "_cfg"] = str(kern.best_config); row[name + "_tune_s"] = round(time.time() - t0, 1)
        except Exception as e:
            row[name + "_err"] = repr(e)[:200]
    for name, fn in fns.items():
        try:
            y = fn(); torch.cuda.synchronize()
            err = ((y.double() - ref).norm() / ref.norm()).item()
            ms = do_bench(fn, warmup=25, rep=100, return_mode="median")
            row[name] = round(fl / ms / 1e9, 1); row[name + "_err"] = f"{err:.1e}"
        except Exception as e:
            row[name + "_exc"] = repr(e)[:200]
    print(json.dumps(row), flush=True)
    out.append(row)
os.makedirs(os.environ.get("OUT", "/tmp"), exist_ok=True)
json.dump(out, open(os.path.join(os.environ.get("OUT", "/tmp"), "tf32_probe.json"), "w"), indent=1)
