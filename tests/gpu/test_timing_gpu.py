"""GPU tier: ``gpu_time`` times the kernel, where ``triton.testing.do_bench`` times a slow
host's launch too (the autotuner's case: docs/benchmarks.md)."""

import time

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_gpu_time_hides_a_slow_launch():
    from triton.testing import do_bench

    from swizzlekit.kernels.triton.timing import gpu_time

    a = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(1024, 1024, device="cuda", dtype=torch.bfloat16)

    def quick():
        torch.matmul(a, b, out=c)

    def slow():                       # 300 us of host work before the same launch
        _spin(300e-6)
        torch.matmul(a, b, out=c)

    kernel = gpu_time(quick, return_mode="median")
    hidden = gpu_time(slow, return_mode="median")
    seen = do_bench(slow, return_mode="median")
    assert 0 < kernel < 0.1                                   # ms: a 1024^3 GEMM
    assert abs(hidden - kernel) < 0.25 * kernel + 0.003       # the launch is hidden
    assert seen > 2 * kernel + 0.05                           # do_bench counts some of it


def test_gpu_time_answers_like_do_bench():
    from triton.testing import do_bench

    from swizzlekit.kernels.triton.timing import gpu_time

    x = torch.randn(64 << 20, device="cuda")                  # 256 MB: GPU-bound, not host
    y = torch.empty_like(x)
    ours = gpu_time(lambda: y.copy_(x), quantiles=(0.5, 0.2, 0.8))
    theirs = do_bench(lambda: y.copy_(x), return_mode="median")
    assert len(ours) == 3 and ours[1] <= ours[0] <= ours[2]
    assert abs(ours[0] - theirs) < 0.05 * theirs
