"""A/B on the `ragged` suite: swizzlekit's matmul with aligned copies (the default from
``PAD_MIN_MNK``) and without them, beside cuBLAS, in one process on fresh operands.

    PYTHONPATH=src python3 docs/data/bench/ragged_pad_ab.py OUT.json

For each shape of ``swizzlekit.lab.bench.SUITES["ragged"]``, bf16 and fp32 with TF32: cuBLAS
(``torch.matmul``), then ``matmul`` as shipped ("padded"), then with ``PAD_MIN_MNK`` raised
past every shape ("unpadded"). Each is checked against float64 into a NaN-poisoned output
and timed by ``swizzlekit.lab.harness.median_ms`` (do_bench median, L2 flushed).
"""

import json
import sys

import torch

from swizzlekit.kernels import matmul
from swizzlekit.kernels.triton import copies
from swizzlekit.lab.bench import SUITES
from swizzlekit.lab.harness import median_ms
from swizzlekit.lab.verify import poisoned, random_operands, relative_error


def main(path: str) -> None:
    torch.backends.cuda.matmul.allow_tf32 = True
    shipped, rows = copies.PAD_MIN_MNK, []
    for name, dtype in (("bf16", torch.bfloat16), ("tf32", torch.float32)):
        for m, n, k in SUITES["ragged"]:
            a, b = random_operands(m, n, k, dtype, "cuda")
            ref = a.double() @ b.double()
            row = {"precision": name, "shape": f"{m}x{n}x{k}",
                   "cublas_ms": median_ms(lambda: torch.matmul(a, b))}
            for mode, limit in (("padded", shipped), ("unpadded", 2**62)):
                copies.PAD_MIN_MNK = limit
                c = poisoned(m, n, dtype, "cuda")
                matmul(a, b, out=c, precision="tf32")
                row[mode + "_err"] = relative_error(c, ref=ref)
                row[mode + "_ms"] = median_ms(lambda: matmul(a, b, out=c, precision="tf32"))
            copies.PAD_MIN_MNK = shipped
            print(json.dumps(row), flush=True)
            rows.append(row)
    with open(path, "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
