"""Where zero-padded copies pay for fp8 rows that are no 16-byte multiples, below
fp8's padding floor (``PAD_MIN_MNK``, 2^31, when this ran; ``FP8_PAD_MIN_MNK`` since):
``scaled_matmul`` as given (the pointer-load kernel, one-byte loads
along K) against on zero-padded aligned copies (the floor set to 1 around its calls:
:func:`swizzlekit.kernels.triton.pad.pad_k`, then TMA), beside ``torch._scaled_mm`` on
operands padded beforehand (its copies not counted). K is no multiple of 16 at every shape,
so A's and Bᵀ's rows are misaligned; both ways run grouped(16) along M. Two clocks per call,
in 5 turns of the Williams order of ``swizzlekit.lab.harness.in_turns``: ``do_bench``'s
median (L2 flushed, the host's time hidden behind the flush) and ``loop``, the GPU time of
200 calls issued back to back (a stream of such calls: bound by the host's time or the
GPU's, whichever is longer). Each call checked against float64 into a NaN-poisoned C, and
its plan recorded (``scaled_describe``). ``probe``: the shapes a threshold is read from;
``heldout``: drawn with them, before any was run, to judge it.

    python3 docs/data/bench/fp8_pad_floor/probe.py OUT.jsonl [probe|heldout ...]   (on a GPU)
"""
import json
import statistics
import sys

import torch
import triton

import swizzlekit.kernels.triton.scaled as scaled
from swizzlekit.kernels.triton.scaled import scaled_matmul
from swizzlekit.lab.bench import _padded16
from swizzlekit.lab.harness import back_to_back_ms, in_turns, median_ms
from swizzlekit.lab.verify import poisoned, relative_error, scaled_operands

SETS = {"probe": [(256, 256, 250), (1024, 512, 130), (128, 1001, 1001), (300, 700, 900),
                  (64, 4096, 1000), (16, 8192, 4095), (512, 2048, 777), (1001, 1001, 1001),
                  (783, 6468, 354), (1500, 1500, 700)],
        "heldout": [(200, 3000, 555), (96, 5000, 1234), (640, 640, 2999), (2000, 400, 801),
                    (48, 12000, 1001), (4000, 1000, 300), (333, 3333, 1111), (700, 9000, 250)]}
PAD = scaled.FP8_PAD_MIN_MNK


def with_floor(floor, fn):
    """``fn`` run with scaled.FP8_PAD_MIN_MNK at ``floor`` (the door reads it each call)."""
    def run():
        scaled.FP8_PAD_MIN_MNK = floor
        try:
            return fn()
        finally:
            scaled.FP8_PAD_MIN_MNK = PAD
    return run


shapes = [s for name in (sys.argv[2:] or ["probe"]) for s in SETS[name]]
with open(sys.argv[1], "a") as f:
    for M, N, K in shapes:
        torch.manual_seed(0)
        a, b, sa, sb, ref = scaled_operands(M, N, K, "cuda")
        a16, b16 = _padded16(a, b)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        # a repeat call goes to the route its fingerprint (shapes, layouts and options) kept,
        # past the door: each way is its own signature, grouped(16) along M spelled two ways
        a2, b2, c2 = a.clone(), b.T.contiguous().T, torch.empty_like(c)
        given, pad = {"group": 16}, {"group": 16, "along": "m"}
        runs = {"as given": with_floor(2**62, lambda: scaled_matmul(a, b, sa, sb, "grouped",
                                                                     out=c, **given)),
                "padded": with_floor(1, lambda: scaled_matmul(a2, b2, sa, sb, "grouped",
                                                               out=c2, **pad)),
                "_scaled_mm padded": lambda: torch._scaled_mm(
                    a16, b16, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                    use_fast_accum=True)}
        errs, plans = {}, {}
        for k, (x, y, out, kw) in (("as given", (a, b, c, given)), ("padded", (a2, b2, c2, pad))):
            out.copy_(poisoned(M, N, torch.bfloat16, "cuda"))
            runs[k]()
            runs[k]()
            errs[k] = relative_error(out, ref=ref)
            d = scaled.scaled_describe(x, y, sa, sb, "grouped", out=out, **kw) or {}
            plans[k] = f"{d.get('kernel')} {d.get('config')} {d.get('copies')}"
        bad = {k: e for k, e in errs.items() if not e < 1e-2}
        times = {}
        if not bad:
            for clock, timer in (("do_bench", lambda fn: median_ms(fn, warmup_ms=10, rep_ms=40)),
                                 ("loop", back_to_back_ms)):
                for k, t in in_turns(runs, 5, timer).items():
                    times[f"{k} {clock}"] = t
        ms = {k: statistics.median(t) for k, t in times.items()}
        row = {"shape": [M, N, K], "mnk_log2": round(float(torch.tensor(M * N * K).log2()), 2),
               "plans": plans, "errors": errs, "bad": bad, "ms": ms, "replicates": times,
               "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__}
        f.write(json.dumps(row) + "\n")
        f.flush()
        print(f"{M}x{N}x{K} (2^{row['mnk_log2']}) {plans}: "
              + "  ".join(f"{k} {v * 1e3:.1f}" for k, v in ms.items())
              + (f"  BAD {bad}" if bad else ""), flush=True)
