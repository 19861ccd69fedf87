import json, sys
import torch, torch.nn.functional as F
from swizzlekit.kernels.triton.pad import pad_to
from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton.copies import _padded_call
from swizzlekit.lab.harness import median_ms, host_us
from swizzlekit.lab.verify import random_operands
f = open(sys.argv[1], "a")
for dt in (torch.bfloat16, torch.float32):
  for m, n, k in [(777, 4095, 1234), (1999, 4097, 3001)]:
    a, b = random_operands(m, n, k, dt, "cuda")
    c = torch.empty(m, n, device="cuda", dtype=dt)
    a2, b2, c2 = _padded_call(a, b, c, "tf32")
    res = {"dtype": str(dt), "shape": [m, n, k], "b2": [list(b2.shape), list(b2.stride())]}
    kk, nn = a2.shape[1], c2.shape[1]
    for name, fn in [("pad_a", lambda: pad_to(a, m, kk)),
                     ("F_pad_a", lambda: F.pad(a, (0, kk - k))),
                     ("pad_b", lambda: _padded_call(a, b, c, "tf32")),
                     ("inner", lambda: matmul(a2, b2, out=c2)),
                     ("copy_back", lambda: c.copy_(c2[:, :n])),
                     ("full_call", lambda: matmul(a, b, out=c))]:
        fn(); torch.cuda.synchronize()
        res[name] = round(median_ms(fn) * 1e3, 2)
        res[name + "_host"] = round(host_us(fn), 1)
    f.write(json.dumps(res) + "\n"); f.flush(); print(res, flush=True)
