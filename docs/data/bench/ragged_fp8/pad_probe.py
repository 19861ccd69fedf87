"""fp8 ragged: pad_k against F.pad, and the call's pieces, do_bench median (L2 flushed)."""
import json, sys
import torch, torch.nn.functional as F
from swizzlekit.kernels.triton.pad import pad_k
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.harness import median_ms, host_us
from swizzlekit.lab.verify import scaled_operands
f = open(sys.argv[1], "a")
for m, n, k in [(1999, 4097, 3001), (777, 4095, 1234), (5003, 2999, 1000)]:
    a, b, sa, sb, ref = scaled_operands(m, n, k, "cuda", rowwise=True)
    k16, n16 = -(-k // 16) * 16, -(-n // 8) * 8
    a2, b2 = pad_k(a, b.T)
    ref2 = (F.pad(a.view(torch.uint8), (0, k16 - k)), F.pad(b.T.view(torch.uint8), (0, k16 - k)))
    assert torch.equal(a2.view(torch.uint8), ref2[0]) and torch.equal(b2.view(torch.uint8), ref2[1])
    b2 = b2.T
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    cp = torch.empty(m, n16, device="cuda", dtype=torch.bfloat16)[:, :n]
    res = {"shape": [m, n, k]}
    for name, fn in [("F_pad", lambda: (F.pad(a.view(torch.uint8), (0, k16 - k)),
                                        F.pad(b.T.view(torch.uint8), (0, k16 - k)))),
                     ("pad_k", lambda: pad_k(a, b.T)),
                     ("ptr_c_ragged", lambda: scaled_matmul(a2, b2, sa, sb, out=c)),
                     ("tma_c_padded", lambda: scaled_matmul(a2, b2, sa, sb, out=cp)),
                     ("c_copy", lambda: c.copy_(cp)),
                     ("tma_c_padded_and_copy", lambda: c.copy_(scaled_matmul(a2, b2, sa, sb, out=cp))),
                     ("full_call", lambda: scaled_matmul(a, b, sa, sb, out=c))]:
        fn(); torch.cuda.synchronize()
        res[name] = round(median_ms(fn), 5)
        res[name + "_host_us"] = round(host_us(fn), 1)
    f.write(json.dumps(res) + "\n"); f.flush()
    print(res, flush=True)
