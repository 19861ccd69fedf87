"""Where does a ragged M lose time on TMA? The TMA kernel of ``stream_k/probe.py`` (plain
tiles, one program each, 128x128x64/s4/w8, grouped(8)) at 317x4096x14336, its last row of
tiles 61 rows deep, with A's and C's descriptors declaring 317 rows (the copy engine
zero-fills A past them and clips C) or 384 (the tensors hold 384 rows, A's last 67 zero), in
the four combinations; beside them ``matmul`` at 317 and 384 rows and cuBLAS. Each checked
against float64 on the first 317 rows, timed in 5 interleaved, rotated replicates
(do_bench medians, L2 flushed). One JSON line.

    python3 docs/data/bench/ragged_m/oob.py OUT.jsonl        (on a GPU)
"""
import json
import pathlib
import statistics
import sys

import torch
import triton
from triton.tools.tensor_descriptor import TensorDescriptor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "stream_k"))
from probe import COUNTS, _stream_k  # noqa: E402

from swizzlekit.kernels import matmul  # noqa: E402
from swizzlekit.lab.harness import interleaved_ms  # noqa: E402

M, MP, N, K = 317, 384, 4096, 14336
BM, BN, BK = 128, 128, 64
torch.manual_seed(0)
A = torch.randn(MP, K, device="cuda", dtype=torch.bfloat16)
A[M:] = 0
B = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
C = torch.empty(MP, N, device="cuda", dtype=torch.bfloat16)
WS = torch.empty(1, device="cuda", dtype=torch.float32)
TILES = -(-M // BM) * -(-N // BN)


def desc(t, rows, block):
    v = t[:rows]
    return TensorDescriptor(v, list(v.shape), list(v.stride()), block)


def run(a_rows, c_rows):
    ad, bd = desc(A, a_rows, [BM, BK]), desc(B, K, [BK, BN])
    cd = desc(C, c_rows, [BM, BN])
    return lambda: _stream_k[(TILES,)](ad, bd, cd, WS, COUNTS, M, N, K, 0, 1, GROUP=8,
                                        BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_stages=4,
                                        num_warps=8)


runs = {f"A {ar} C {cr}": run(ar, cr) for ar in (M, MP) for cr in (M, MP)}
runs.update({"matmul 317": lambda: matmul(A[:M], B, out=C[:M]),
             "matmul 384": lambda: matmul(A, B, out=C),
             "cublas 317": lambda: torch.matmul(A[:M], B, out=C[:M]),
             "cublas 384": lambda: torch.matmul(A, B, out=C)})
ref = A[:M].double() @ B.double()
errs = {}
for k, fn in runs.items():
    C.fill_(float("nan"))
    fn()
    got = C[:M].double()
    errs[k] = float((got - ref).norm() / ref.norm()) if torch.isfinite(got).all() else float("nan")
bad = {k: e for k, e in errs.items() if not e < 1e-2}
times = interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
ms = {k: statistics.median(t) for k, t in times.items()}
row = {"shape": [M, N, K], "padded_rows": MP, "errors": errs, "bad": bad, "ms": ms,
       "replicates": times, "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
       "triton": triton.__version__}
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(row) + "\n")
print("  ".join(f"{k}: {v * 1e3:.1f}" for k, v in ms.items()), "BAD" if bad else "", flush=True)
