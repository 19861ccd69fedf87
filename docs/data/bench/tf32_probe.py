"""TF32 with a row-major B and no K-major copy, on the H200 (session 12). Two stages, each the
run that wrote its JSON under $OUT:

- ``python3 docs/data/bench/tf32_probe.py 1`` -> tf32_probe.json: (plain) Triton's own
  transpose in shared memory (TMA [BK, BN] tiles into tl.dot), and (swap) Cᵀ = Bᵀ Aᵀ with Bᵀ
  staged in shared memory, beside cuBLAS, ``matmul``'s default (``lib_copy``: at the time, commit
  d0ec4c3, it copied B K-major) and its pointer loads (``tma=False``).
- ``... 2`` -> tf32_probe2.json: the swap with Bᵀ kept in registers (swap_reg, ``b.T + 0.0``)
  and rounded to TF32 to nearest there (swap_rna, ``cvt.rna``), beside cuBLAS.

Prints TFLOP/s (do_bench median, L2 flushed) and relative errors against float64.
Run from the repository root. The two JSONs were written by two scripts, this one and
tf32_probe2.py as committed in a2c48cd; this file merges them with the kernels written once
(same kernels, tiles, shapes and timing) and has not been re-run in this form. The grouped order comes from swizzlekit.cta.triton.grouped; the runs
used an inline copy of the same arithmetic."""
import json, os, sys, time
import torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor
from triton.testing import do_bench
sys.path.insert(0, "src")
from swizzlekit.cta.triton import grouped
from swizzlekit.kernels.triton.matmul import matmul

torch.backends.cuda.matmul.allow_tf32 = True
STAGE = int(sys.argv[1]) if len(sys.argv) > 1 else 1


def cfgs(shapes):
    return [triton.Config({"BM": bm, "BN": bn, "BK": bk}, num_stages=s, num_warps=w,
                          pre_hook=blocks) for bm, bn, bk, s, w in shapes]


def blocks(nargs):
    nargs["a_desc"].block_shape = [nargs["BM"], nargs["BK"]]
    nargs["b_desc"].block_shape = [nargs["BK"], nargs["BN"]]
    nargs["c_desc"].block_shape = [nargs["BM"], nargs["BN"]]


PLAIN = [(128, 128, 32, 3, 8), (128, 128, 32, 4, 8), (128, 256, 32, 3, 8), (128, 64, 64, 3, 4),
         (64, 128, 32, 4, 4), (128, 128, 64, 2, 8), (64, 64, 64, 4, 4)]
SWAP = [(16, 128, 64, 4, 4), (32, 128, 64, 3, 4), (64, 128, 32, 4, 4), (16, 64, 128, 3, 4),
        (32, 64, 64, 4, 4), (64, 64, 64, 3, 4), (128, 128, 32, 3, 8), (64, 256, 32, 3, 8)]
if STAGE == 2:
    SWAP += [(128, 128, 32, 4, 4), (256, 128, 32, 3, 8), (128, 256, 32, 3, 8),
             (128, 128, 64, 3, 8), (64, 128, 64, 3, 4)]


@triton.jit
def _rna(x):
    return tl.inline_asm_elementwise("cvt.rna.tf32.f32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def _operands(x, ROLE: tl.constexpr):
    """Bᵀ as the swapped dot's first operand: as loaded (staged in shared memory), kept in
    registers (+ 0.0), or rounded to nearest TF32 there."""
    if ROLE == "loaded":
        y = x.T
    elif ROLE == "registers":
        y = x.T + 0.0
    else:
        y = _rna(x.T)
    return y


@triton.jit
def _body(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
          BK: tl.constexpr, SWAPPED: tl.constexpr, ROLE: tl.constexpr):
    pm, pn = grouped(tl.program_id(0), tl.cdiv(M, BM), tl.cdiv(N, BN), 8)
    if SWAPPED:
        acc = tl.zeros((BN, BM), tl.float32)
    else:
        acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([k * BK, pn * BN])
        if SWAPPED:
            acc = tl.dot(_operands(b, ROLE), a.T, acc, input_precision="tf32")
        else:
            acc = tl.dot(a, b, acc, input_precision="tf32")
    if SWAPPED:
        c_desc.store([pm * BM, pn * BN], acc.T)
    else:
        c_desc.store([pm * BM, pn * BN], acc)


def _kernel(shapes, swapped, role):
    @triton.autotune(cfgs(shapes), key=["M", "N", "K"])
    @triton.jit
    def kernel(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
        _body(a_desc, b_desc, c_desc, M, N, K, BM, BN, BK, swapped, role)
    return kernel


KERNELS = ({"plain_nocopy": _kernel(PLAIN, False, "loaded"),
            "swap_nocopy": _kernel(SWAP, True, "loaded")} if STAGE == 1 else
           {"swap_reg": _kernel(SWAP, True, "registers"),
            "swap_rna": _kernel(SWAP, True, "rounded")})
SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (4096, 14336, 4096), (16, 14336, 4096),
          (64, 8192, 8192), (256, 4096, 14336), (512, 4096, 4096), (128, 8192, 8192),
          (3000, 5000, 4000)]
out = []
for M, N, K in SHAPES:
    g = torch.Generator(device="cuda").manual_seed(M + N + K)
    a = torch.randn(M, K, device="cuda", generator=g)
    b = torch.randn(K, N, device="cuda", generator=g)
    ref = a.double() @ b.double()
    row = {"shape": f"{M}x{N}x{K}"}
    fns = {"cublas": lambda: torch.matmul(a, b)}
    if STAGE == 1:
        fns.update(lib_copy=lambda: matmul(a, b), lib_pointer=lambda: matmul(a, b, tma=False))
    for name, kern in KERNELS.items():
        c = torch.full((M, N), float("nan"), device="cuda")
        d = [TensorDescriptor(t, list(t.shape), list(t.stride()), [16, 16]) for t in (a, b, c)]
        grid = lambda m: (triton.cdiv(M, m["BM"]) * triton.cdiv(N, m["BN"]),)  # noqa: E731
        t0 = time.time()
        kern[grid](*d, M, N, K)
        torch.cuda.synchronize()
        fns[name] = (lambda kern=kern, d=d, c=c, grid=grid: (kern[grid](*d, M, N, K), c)[1])
        row[name + "_cfg"] = str(kern.best_config)
        row[name + "_tune_s"] = round(time.time() - t0, 1)
    for name, fn in fns.items():
        y = fn()
        torch.cuda.synchronize()
        row[name + "_err"] = f"{((y.double() - ref).norm() / ref.norm()).item():.1e}"
        ms = do_bench(fn, warmup=25, rep=100, return_mode="median")
        row[name] = round(2 * M * N * K / ms / 1e9, 1)
    print(json.dumps(row), flush=True)
    out.append(row)
name = "tf32_probe.json" if STAGE == 1 else "tf32_probe2.json"
json.dump(out, open(os.path.join(os.environ.get("OUT", "/tmp"), name), "w"), indent=1)
