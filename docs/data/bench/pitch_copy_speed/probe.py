"""How fast B's pitched copy runs against torch's own copies: the library's ``_pitched``
(``pad.pad_to``: a Triton tile copy, 16-byte accesses where the rows allow), torch's
``copy_`` into the same pitched buffer (a strided destination), and ``clone`` (contiguous
to contiguous, the bandwidth a copy of these bytes can reach). Each result checked equal to
B; 5 interleaved, rotated replicates of do_bench medians; GB/s counts B's bytes read and
the buffer's bytes written.

    python3 docs/data/bench/pitch_copy_speed/probe.py OUT.jsonl     (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

from swizzlekit.kernels.triton.copies import _pitch_shape, _pitched
from swizzlekit.lab.harness import interleaved_ms

SHAPES = [(4000, 5000), (3000, 7000), (1000, 2999), (8192, 5000), (4096, 14330)]    # K x N

if __name__ == "__main__":
    with open(sys.argv[1], "a") as f:
        for K, N in SHAPES:
            b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
            rows, cols = _pitch_shape(b)
            buf = torch.empty(rows, cols, device="cuda", dtype=b.dtype)

            def torch_copy():
                out = torch.empty(rows, cols, device="cuda", dtype=b.dtype)
                return out[:, :N].copy_(b)
            runs = {"library _pitched": lambda: _pitched(b), "torch copy_": torch_copy,
                    "torch clone": lambda: b.clone()}
            same = {k: bool(torch.equal(fn()[:, :N], b)) for k, fn in runs.items()}
            times = interleaved_ms(runs, 5, warmup_ms=10, rep_ms=40)
            ms = {k: statistics.median(t) for k, t in times.items()}
            moved = b.numel() * 2 + rows * cols * 2
            gbs = {k: moved / (v * 1e-3) / 1e9 for k, v in ms.items()}
            row = {"b": [K, N], "pitch": [rows, cols], "equal": same, "ms": ms,
                   "replicates": times, "gb_s": gbs, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"B {K}x{N} -> {rows}x{cols}: " + "  ".join(
                f"{k} {ms[k] * 1e3:.1f} us ({gbs[k]:.0f} GB/s)" for k in ms) + f"  equal {same}",
                flush=True)
