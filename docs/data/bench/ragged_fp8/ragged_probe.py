"""Ragged shapes: the bench's rows (cuBLAS, triton) under one source tree; fp8 kernel variants."""
import json, sys
sys.path.insert(0, sys.argv[1])
import torch
from swizzlekit.lab.bench import Run, time_group
out, label = sys.argv[2], sys.argv[3]
shapes = [(1999, 4097, 3001), (777, 4095, 1234), (5003, 2999, 1000)]
f = open(out, "a")
for prec in sys.argv[4].split(","):
    for s in shapes:
        rows = time_group([Run("full", s, prec, "cublas"), Run("full", s, prec, "triton", "auto")],
                          warm=False, base_tflops=None)
        for r in rows:
            r["label"] = label
            f.write(json.dumps(r) + "\n"); f.flush()
            print(label, prec, s, r["kernel"], r["ms"], r["vs_cublas"], r["host_us"], r["ok"], flush=True)
if label != "new":
    sys.exit()
# fp8 on copies made beforehand: pointer kernel (C ragged) vs TMA (C padded), kernel only
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.harness import median_ms
from swizzlekit.lab.verify import scaled_operands
import torch.nn.functional as F
for m, n, k in shapes:
    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
    k16, n16 = -(-k // 16) * 16, -(-n // 8) * 8
    a2 = F.pad(a.view(torch.uint8), (0, k16 - k)).view(a.dtype)
    b2 = F.pad(b.T.view(torch.uint8), (0, k16 - k)).view(b.dtype).T
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    cp = torch.empty(m, n16, device="cuda", dtype=torch.bfloat16)[:, :n]
    res = {"shape": [m, n, k]}
    for name, fn in [("ptr_c_ragged", lambda: scaled_matmul(a2, b2, sa, sb, out=c)),
                     ("tma_c_padded", lambda: scaled_matmul(a2, b2, sa, sb, out=cp)),
                     ("ptr_c_padded", lambda: scaled_matmul(a2, b2, sa, sb, out=cp, tma=False)),
                     ("pads_only", lambda: (F.pad(a.view(torch.uint8), (0, k16 - k)),
                                            F.pad(b.T.view(torch.uint8), (0, k16 - k)))),
                     ("full_call", lambda: scaled_matmul(a, b, sa, sb, out=c))]:
        fn(); torch.cuda.synchronize()
        res[name] = round(median_ms(fn), 5)
    f.write(json.dumps(res) + "\n"); f.flush()
    print(res, flush=True)
