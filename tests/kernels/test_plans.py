"""Launch plans on the CPU: what a plan hands the launcher, against what Triton's JIT would.

The GPU tier (tests/gpu/test_matmul_gpu.py) checks the products of plans against float64;
here a recording kernel and driver stand in for the GPU, so that the argument order, the
heuristics, the grid and the refusals are checked in CI."""

from types import SimpleNamespace

import pytest

triton = pytest.importorskip("triton")

from swizzlekit.kernels.triton.plans import Plan, PlanCache, capture  # noqa: E402


def _gemm(a_ptr, b_ptr, c_ptr, M, N, K, ORDER, BLOCK_M, BLOCK_N, EVEN_K):
    pass


def _stack(best=None):
    """autotune(heuristics(jit(_gemm))) built from Triton's own classes, as a real kernel is."""
    from triton.runtime.autotuner import Heuristics
    from triton.runtime.jit import JITFunction

    jit = JITFunction(_gemm)
    heur = Heuristics(jit, jit.arg_names, {"EVEN_K": lambda args: args["K"] % 64 == 0})
    tuned = SimpleNamespace(fn=heur, best_config=best)        # what capture reads of Autotuner
    return tuned, jit


class _Kernel:
    """A compiled kernel that records its launches."""

    def __init__(self, names):
        self.src = SimpleNamespace(signature={n: "i32" for n in names})
        self.packed_metadata, self.function, self.name, self.calls = "meta", "fn", "k", []

    def launch_metadata(self, grid, stream, *args):
        return ("launch", grid)

    def run(self, *args):
        self.calls.append(args)


def _config(**kwargs):
    return SimpleNamespace(kwargs=kwargs)


def _grid(meta):
    return (triton.cdiv(meta["M"], meta["BLOCK_M"]) * triton.cdiv(meta["N"], meta["BLOCK_N"]),)


def test_a_plan_passes_every_argument_in_signature_order(monkeypatch):
    from triton import knobs
    from triton.runtime.driver import driver

    tuned, jit = _stack(_config(BLOCK_M=128, BLOCK_N=64))
    kernel = _Kernel(jit.arg_names)
    named = dict(a_ptr="A0", b_ptr="B0", c_ptr="C0", M=1000, N=300, K=640, ORDER="hilbert")
    plan = capture(tuned, kernel, named, _grid, n_tensors=3)
    assert plan.grid == (8 * 5, 1, 1)
    assert plan.rest == (1000, 300, 640, "hilbert", 128, 64, True)     # EVEN_K by heuristic
    monkeypatch.setattr(driver, "_active", SimpleNamespace(
        get_current_device=lambda: 0, get_current_stream=lambda device: 77))
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", None)
    plan("A1", "B1", "C1")
    (call,) = kernel.calls
    assert call[:7] == (40, 1, 1, 77, "fn", "meta", None)
    assert call[9:] == ("A1", "B1", "C1", 1000, 300, 640, "hilbert", 128, 64, True)


def test_launch_hooks_still_see_a_planned_launch(monkeypatch):
    from triton import knobs
    from triton.runtime.driver import driver

    tuned, jit = _stack(_config(BLOCK_M=64, BLOCK_N=64))
    kernel = _Kernel(jit.arg_names)
    plan = capture(tuned, kernel, dict(a_ptr=1, b_ptr=2, c_ptr=3, M=64, N=64, K=100,
                                       ORDER="row"), _grid, n_tensors=3)
    assert plan.rest[-1] is False                                       # 100 % 64 != 0
    monkeypatch.setattr(driver, "_active", SimpleNamespace(
        get_current_device=lambda: 0, get_current_stream=lambda device: 5))
    hook = lambda meta: None  # noqa: E731
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", hook)
    plan(1, 2, 3)
    assert kernel.calls[0][6] == ("launch", (1, 1, 1)) and kernel.calls[0][7] is hook


@pytest.mark.parametrize("case", ["no config", "no packed metadata", "other signature",
                                  "missing argument"])
def test_no_plan_where_triton_differs(case):
    tuned, jit = _stack(None if case == "no config" else _config(BLOCK_M=64, BLOCK_N=64))
    names = list(jit.arg_names)
    kernel = _Kernel(names[::-1] if case == "other signature" else names)
    if case == "no packed metadata":
        del kernel.packed_metadata
    named = dict(a_ptr=1, b_ptr=2, c_ptr=3, M=64, N=64, K=64, ORDER="row")
    if case == "missing argument":
        del named["ORDER"]
    assert capture(tuned, kernel, named, _grid, n_tensors=3) is None


def test_the_cache_keeps_the_most_recently_used():
    cache = PlanCache(size=2)
    plans = [Plan(None, (1, 1, 1), (), {}) for _ in range(3)]
    cache.put("a", plans[0])
    cache.put("b", plans[1])
    assert cache.get("a") is plans[0]                  # a is now the most recent
    cache.put("c", plans[2])
    assert cache.get("b") is None and cache.get("a") is plans[0] and cache.get("c") is plans[2]
    cache.put("d", None)                               # no plan: nothing stored
    assert len(cache) == 2
    cache.clear()
    assert len(cache) == 0
