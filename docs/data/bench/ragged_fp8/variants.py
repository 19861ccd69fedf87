import json, sys
import torch
from swizzlekit.kernels.triton.pad import pad_k
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.harness import median_ms
from swizzlekit.lab.verify import scaled_operands, relative_error
f = open(sys.argv[1], "a")
for m, n, k in [(1999, 4097, 3001), (777, 4095, 1234), (5003, 2999, 1000)]:
    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
    n16 = -(-n // 16) * 16
    a2, b2 = pad_k(a, b.T); b2 = b2.T
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    cp = torch.empty(m, n16, device="cuda", dtype=torch.bfloat16)[:, :n]
    res = {"shape": [m, n, k]}
    for name, fn in [("ptr_c_ragged", lambda: scaled_matmul(a2, b2, sa, sb, out=c)),
                     ("ptr_c_padded", lambda: scaled_matmul(a2, b2, sa, sb, out=cp, tma=False)),
                     ("tma_c_padded", lambda: scaled_matmul(a2, b2, sa, sb, out=cp, tma=True)),
                     ("tma_c_padded_split2", lambda: scaled_matmul(a2, b2, sa, sb, out=cp, tma=True, split_k=2)),
                     ("persistent_c_padded", lambda: scaled_matmul(a2, b2, sa, sb, out=cp, persistent=True)),
                     ("ptr_c_ragged_split2", lambda: scaled_matmul(a2, b2, sa, sb, out=c, split_k=2))]:
        cp.fill_(float("nan")); c.fill_(float("nan"))
        out = fn(); torch.cuda.synchronize()
        err = relative_error(out, ref=ref)
        res[name] = round(median_ms(fn) * 1e3, 2)
        res[name + "_err_ok"] = bool(err < 1e-2)
    f.write(json.dumps(res) + "\n"); f.flush()
    print(res, flush=True)
