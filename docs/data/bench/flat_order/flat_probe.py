"""Triton 3.6 on the H200: does a persistent TMA GEMM gain from warp specialization
(tl.range(..., warp_specialize=True)), a flattened loop, or epilogue subtiling? bf16 and fp8,
large shapes, each variant against cuBLAS (and _scaled_mm) and swizzlekit's default, with a
float64 check. Writes JSON lines to argv[1]."""
import json, sys, time
import torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor
from triton.testing import do_bench
sys.path.insert(0, "src")
from swizzlekit.kernels.triton.matmul import matmul
from swizzlekit.kernels.triton.scaled import scaled_matmul

OUT = open(sys.argv[1], "w")
SMS = torch.cuda.get_device_properties(0).multi_processor_count


def emit(**kw):
    print(json.dumps(kw), flush=True)
    OUT.write(json.dumps(kw) + "\n"); OUT.flush()


@triton.jit
def _group(tile, tm, tn, G: tl.constexpr):
    width = G * tn
    gid = tile // width
    first = gid * G
    gm = tl.minimum(tm - first, G)
    return first + (tile % width) % gm, (tile % width) // gm


@triton.jit
def persistent(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr, NUM: tl.constexpr, WS: tl.constexpr, FLATTEN: tl.constexpr,
               SUBTILE: tl.constexpr, BT: tl.constexpr):
    tm = tl.cdiv(M, BM)
    tn = tl.cdiv(N, BN)
    ks = tl.cdiv(K, BK)
    for tile in tl.range(tl.program_id(0), tm * tn, NUM, flatten=FLATTEN, warp_specialize=WS):
        pm, pn = _group(tile, tm, tn, 8)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(ks):
            a = a_desc.load([pm * BM, k * BK])
            if BT:
                b = b_desc.load([pn * BN, k * BK]).T
            else:
                b = b_desc.load([k * BK, pn * BN])
            acc = tl.dot(a, b, acc)
        if SUBTILE:
            acc = tl.reshape(acc, (BM, 2, BN // 2))
            acc = tl.permute(acc, (0, 2, 1))
            c0, c1 = tl.split(acc)
            c_desc.store([pm * BM, pn * BN], c0.to(c_desc.dtype))
            c_desc.store([pm * BM, pn * BN + BN // 2], c1.to(c_desc.dtype))
        else:
            c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))


def run(a, b, c, cfg, ws, flatten, subtile, bt):
    bm, bn, bk, s, w = cfg
    ad = TensorDescriptor(a, list(a.shape), list(a.stride()), [bm, bk])
    bd = (TensorDescriptor(b, list(b.shape), list(b.stride()), [bn, bk]) if bt else
          TensorDescriptor(b, list(b.shape), list(b.stride()), [bk, bn]))
    cd = TensorDescriptor(c, list(c.shape), list(c.stride()), [bm, bn // 2 if subtile else bn])
    M, K = a.shape
    N = c.shape[1]
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    grid = (min(tiles, SMS),)
    return lambda: persistent[grid](ad, bd, cd, M, N, K, bm, bn, bk, SMS, ws, flatten, subtile,
                                    bt, num_stages=s, num_warps=w)


def alloc_fn(size, align, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


triton.set_allocator(alloc_fn)

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 512), (4096, 14336, 4096),
          (16384, 16384, 2048), (2048, 16384, 8192)]
CFGS = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 8)]
VARIANTS = [(False, False, False), (True, False, False), (True, True, False), (False, False, True),
            (True, False, True)]

t0 = time.time()
for prec in ("bf16", "fp8"):
    for (M, N, K) in SHAPES:
        torch.manual_seed(0)
        if prec == "bf16":
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            ref = (a.double() @ b.double())
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            cub = do_bench(lambda: torch.matmul(a, b, out=c), warmup=50, rep=300)
            mine = do_bench(lambda: matmul(a, b, out=c), warmup=50, rep=300)
            mine_g8 = do_bench(lambda: matmul(a, b, "grouped", group=8, out=c), warmup=50, rep=300)
            mine_p = do_bench(lambda: matmul(a, b, "grouped", group=8, out=c, persistent=True),
                              warmup=50, rep=300)
            bt = False
            bop = b
        else:
            a = (torch.randn(M, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
            btn = (torch.randn(N, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
            b = btn.T
            ref = a.double() @ b.double()
            one = torch.ones((), device="cuda")
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            cub = do_bench(lambda: torch._scaled_mm(a, b, one, one, out_dtype=torch.bfloat16,
                                                    use_fast_accum=True, out=c), warmup=50, rep=300)
            mine = do_bench(lambda: scaled_matmul(a, b, one, one, out=c), warmup=50, rep=300)
            mine_g8 = do_bench(lambda: scaled_matmul(a, b, one, one, "grouped", group=8, out=c),
                               warmup=50, rep=300)
            mine_p = do_bench(lambda: scaled_matmul(a, b, one, one, "grouped", group=8, out=c,
                                                    persistent=True), warmup=50, rep=300)
            bt = True
            bop = btn
        flops = 2 * M * N * K
        emit(prec=prec, shape=[M, N, K], kernel="cublas", ms=cub, tflops=flops / cub / 1e9)
        emit(prec=prec, shape=[M, N, K], kernel="swizzlekit_auto", ms=mine, tflops=flops / mine / 1e9)
        emit(prec=prec, shape=[M, N, K], kernel="swizzlekit_grouped8", ms=mine_g8, tflops=flops / mine_g8 / 1e9)
        emit(prec=prec, shape=[M, N, K], kernel="swizzlekit_persistent_g8", ms=mine_p, tflops=flops / mine_p / 1e9)
        for cfg in CFGS:
            if prec == "fp8":
                cfg = (cfg[0], cfg[1], 128, cfg[3], cfg[4])
            for ws, flatten, subtile in VARIANTS:
                tag = dict(prec=prec, shape=[M, N, K], cfg=list(cfg), ws=ws, flatten=flatten,
                           subtile=subtile)
                try:
                    c.fill_(float("nan"))
                    f = run(a, bop, c, cfg, ws, flatten, subtile, bt)
                    f()
                    torch.cuda.synchronize()
                    err = ((c.double() - ref).norm() / ref.norm()).item()
                    ms = do_bench(f, warmup=50, rep=300)
                    emit(**tag, ms=ms, tflops=flops / ms / 1e9, vs_cublas=cub / ms, err=err)
                except Exception as e:
                    emit(**tag, error=str(e).splitlines()[0][:300] if str(e) else type(e).__name__)
                if time.time() - t0 > float(sys.argv[2]):
                    emit(stop="time")
                    sys.exit(0)
emit(done=time.time() - t0)
