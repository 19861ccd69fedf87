"""Aligned copies by words (pad._pad_words) against element by element (pad._pad_pair_kernel):
GPU time (do_bench median, L2 flushed) and host time, bit-equal to F.pad, for the ragged rows'
operands in fp8 (pad_k), bf16 and fp32 (pad_pair, as matmul pads A and B).

    python3 docs/data/bench/ragged_fp8/pad_words_probe.py OUT.jsonl

The word path was measured and taken back out (it was no faster): run this on the commit
that added it (git log -- docs/data/bench/ragged_fp8/pad_words_probe.py), where
``pad._by_words`` exists.
"""
import json
import sys

import torch
import torch.nn.functional as F

from swizzlekit.kernels.triton import pad
from swizzlekit.lab.harness import host_us, median_ms

f = open(sys.argv[1], "a")
by_words = pad._by_words
for m, n, k in [(1999, 4097, 3001), (777, 4095, 1234), (5003, 2999, 1000)]:
    for dtype in (torch.float8_e4m3fn, torch.bfloat16, torch.float32):
        a = torch.randn(m, k, device="cuda").to(dtype)
        if dtype.itemsize == 1:
            bt = torch.randn(n, k, device="cuda").to(dtype)
            k16 = -(-k // 16) * 16
            fn = lambda: pad.pad_k(a, bt)                                        # noqa: E731
            want = (F.pad(a.view(torch.uint8), (0, k16 - k)),
                    F.pad(bt.view(torch.uint8), (0, k16 - k)))
        else:       # matmul's copies: A to K rounded to 16 bytes' worth, B (K x N) to N's
            b = torch.randn(k, n, device="cuda").to(dtype)
            per = 16 // dtype.itemsize
            kk, nn = -(-k // per) * per, -(-n // per) * per
            fn = lambda: pad.pad_pair(a, (m, kk), b, (kk, nn))                  # noqa: E731
            want = (F.pad(a, (0, kk - k)), F.pad(b, (0, nn - n, 0, kk - k)))
        res = {"shape": [m, n, k], "dtype": str(dtype).replace("torch.", "")}
        for name, words in (("elements", False), ("words", True)):
            pad._by_words = by_words if words else (lambda *args: False)
            pad.PAD_PLANS._plans.clear()
            got = fn()
            torch.cuda.synchronize()
            res[name + "_equal"] = all(torch.equal(g.view(torch.uint8), w.view(torch.uint8))
                                       for g, w in zip(got, want))
            res[name + "_ms"] = round(median_ms(fn), 5)
            res[name + "_host_us"] = round(host_us(fn), 1)
        moved = sum(t.numel() * t.element_size() for t in (*want, a)) + (
            (bt if dtype.itemsize == 1 else b).numel() * dtype.itemsize)
        res["words_tb_s"] = round(moved / res["words_ms"] / 1e9, 2)
        res["elements_tb_s"] = round(moved / res["elements_ms"] / 1e9, 2)
        pad._by_words = by_words
        f.write(json.dumps(res) + "\n")
        f.flush()
        print(res, flush=True)
