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


def test_a_plan_keeps_its_configs_stages_warps_and_order():
    """Plan.info: the autotuner's stages and warps (a triton.Config's), and the order and P
    of the call where its kernel takes them (what matmul.describe reports)."""
    tuned, jit = _stack(triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=4,
                                      num_stages=3))
    named = dict(a_ptr="A0", b_ptr="B0", c_ptr="C0", M=1000, N=300, K=640, ORDER="hilbert")
    plan = capture(tuned, _Kernel(jit.arg_names), named, _grid, n_tensors=3)
    assert plan.info == {"num_stages": 3, "num_warps": 4, "ORDER": "hilbert"}
    assert plan.config == {"BLOCK_M": 128, "BLOCK_N": 64}


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


# ------------------------------------------------- TMA calls: descriptors encoded once per address
def _wrap_handle_tensordesc(launcher, tensordesc_indices, tensordesc_meta, make):
    """The shape of Triton 3.6's wrapper: a closure named ``inner`` over these names."""
    def inner(*args):
        final_args = list(args[:13])
        for i, arg in enumerate(args[13:]):
            final_args.extend(make(arg, tensordesc_meta[i]) if i in tensordesc_indices
                              else [arg])
        return launcher(*final_args)
    return inner


class _Launcher:
    """Triton 3.6's CudaLauncher as a plan sees it: ``launch`` wraps the C launcher."""

    launch_cooperative_grid, launch_pdl, global_scratch_size, profile_scratch_size = (
        False, True, 0, 0)

    def __init__(self, make, n_desc=3):
        self.calls = []
        self.launch = _wrap_handle_tensordesc(lambda *a: self.calls.append(a),
                                              set(range(n_desc)),
                                              [{"block": i} for i in range(n_desc)], make)

    def __call__(self, gx, gy, gz, stream, function, *args):
        self.launch(gx, gy, gz, stream, function, self.launch_cooperative_grid,
                    self.launch_pdl, None, None, *args)


class _Desc:
    def __init__(self, ptr):
        self.ptr = ptr


class _Tensor:
    def __init__(self, ptr):
        self.ptr = ptr

    def data_ptr(self):
        return self.ptr


@pytest.fixture
def tma_plan(monkeypatch):
    """A plan over a 3.6-style launcher, the encoder counting its calls, and the hooks off."""
    from triton import knobs
    from triton.runtime.driver import driver

    from swizzlekit.kernels.triton import plans

    encoded = []

    def make(desc, meta):
        encoded.append(desc.ptr)
        return [("map", desc.ptr, meta["block"]), 64, 32, 32, 1]

    monkeypatch.setattr(plans, "_make_tensordesc_arg", lambda: make)
    monkeypatch.setattr(driver, "_active", SimpleNamespace(
        get_current_device=lambda: 0, get_current_stream=lambda device: 9))
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", None)
    monkeypatch.setattr(knobs.runtime, "launch_exit_hook", None)
    kernel = SimpleNamespace(run=_Launcher(make), function="fn", packed_metadata="meta",
                             name="k", launch_metadata=lambda grid, stream, *args: "launch")
    return Plan(kernel, (4, 2, 1), (100, 200, "row", 128), {}), kernel.run, encoded


def _call(plan, ptrs, built):
    tensors = tuple(_Tensor(p) for p in ptrs)
    plan.tma(tensors, lambda: built.append(ptrs) or [_Desc(p) for p in ptrs], "ws", "counts")


def test_a_tma_plan_passes_what_triton_s_wrapper_would(tma_plan):
    plan, launcher, encoded = tma_plan
    plan(*[_Desc(p) for p in (16, 32, 48)], "ws", "counts")          # Triton's own path
    _call(plan, (16, 32, 48), [])
    assert len(launcher.calls) == 2 and launcher.calls[0] == launcher.calls[1]
    assert launcher.calls[1][:13] == (4, 2, 1, 9, "fn", False, True, None, None, "meta",
                                      None, None, None)
    assert launcher.calls[1][13:] == (("map", 16, 0), 64, 32, 32, 1, ("map", 32, 1), 64, 32,
                                      32, 1, ("map", 48, 2), 64, 32, 32, 1, "ws", "counts",
                                      100, 200, "row", 128)


def test_a_tma_plan_encodes_each_address_set_once(tma_plan):
    from swizzlekit.kernels.triton.plans import ENCODED_PER_PLAN

    plan, launcher, encoded = tma_plan
    built = []
    for ptrs in [(16, 32, 48), (16, 32, 48), (16, 32, 64), (16, 32, 48)]:
        _call(plan, ptrs, built)
    assert built == [(16, 32, 48), (16, 32, 64)] and encoded == [16, 32, 48, 16, 32, 64]
    assert [c[13][1] for c in launcher.calls] == [16, 16, 16, 16]
    assert [c[23][1] for c in launcher.calls] == [48, 48, 64, 48]    # C's map follows C
    for i in range(ENCODED_PER_PLAN):                # (16, 32, 48) is now the least recent
        _call(plan, (1000 + i, 32, 48), built)
    built.clear()
    _call(plan, (16, 32, 64), built)                 # used after it, so dropped before it
    _call(plan, (16, 32, 48), built)
    assert built == [(16, 32, 64), (16, 32, 48)]


def test_a_tma_plan_takes_triton_s_path_under_hooks_or_another_wrapper(tma_plan, monkeypatch):
    from triton import knobs

    from swizzlekit.kernels.triton.plans import _direct_launcher

    plan, launcher, encoded = tma_plan
    chain = getattr(knobs, "HookChain", None)
    if chain is not None:                            # empty hook chains: no hook is set
        monkeypatch.setattr(knobs.runtime, "launch_enter_hook", chain())
        monkeypatch.setattr(knobs.runtime, "launch_exit_hook", chain(reversed=True))
        _call(plan, (16, 32, 48), built := [])
        assert built == [(16, 32, 48)] and launcher.calls[-1][11:13] == (None, None)
        launcher.calls.clear()
        plan._encoded.clear()
    monkeypatch.setattr(knobs.runtime, "launch_exit_hook", lambda meta: None)
    _call(plan, (16, 32, 48), built := [])
    _call(plan, (16, 32, 48), built)
    assert built == [(16, 32, 48)] * 2               # built every call, for Triton to encode
    assert len(launcher.calls) == 2
    launcher.arg_annotations = ()                    # Triton 3.9's launcher: not this one
    assert _direct_launcher(SimpleNamespace(run=launcher)) is None
    del launcher.arg_annotations
    launcher.global_scratch_size = 128
    assert _direct_launcher(SimpleNamespace(run=launcher)) is None
    launcher.global_scratch_size = 0
    assert _direct_launcher(SimpleNamespace(run=launcher)) is not None
    assert _direct_launcher(_Kernel(["a"])) is None  # a plain launcher: no descriptors


class _RecordingPlan:
    """Stands in for a Plan: records what scaled_matmul's _follow hands it."""

    config = {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16}

    def __init__(self):
        self.calls = []

    def tma(self, tensors, descriptors, *others):
        self.calls.append(("tma", tensors, descriptors(), others))

    def __call__(self, *tensors):
        self.calls.append(("pointer", tensors))


@pytest.mark.parametrize("n", [32, 30])
def test_fp8_follow_passes_c_by_descriptor_or_by_pointer(n):
    """A TMA route describes A, Bᵀ and C where C's rows are 16-byte aligned (N = 32 bf16);
    else (N = 30, the route's c_ptr) A and Bᵀ, with C passed first among the pointers
    (C_PTR); a pointer-load route passes every tensor as given."""
    torch = pytest.importorskip("torch")
    from swizzlekit.kernels.triton.routes import Route
    from swizzlekit.kernels.triton.scaled import _follow

    a = torch.ones(48, 64, dtype=torch.float8_e4m3fn)
    b = torch.ones(n, 64, dtype=torch.float8_e4m3fn).T
    c = torch.empty(48, n, dtype=torch.bfloat16)
    sa, sb, ws, counts = (torch.ones(1) for _ in range(4))
    plan = _RecordingPlan()
    route = Route(("k",), 1, True, True, c_ptr=n != 32)
    assert _follow(route, plan, a, b, c, sa, sb, ws, counts) is c
    _follow(Route(("k",), 1, False, True), plan, a, b, c, sa, sb, ws, counts)
    (kind, tensors, descs, others), pointer = plan.calls
    by_tma = (a, b.T, c) if n == 32 else (a, b.T)
    assert kind == "tma" and len(tensors) == len(descs) == len(by_tma)
    assert all(t is d.base for t, d in zip(tensors, descs))
    assert [t.data_ptr() for t in tensors] == [t.data_ptr() for t in by_tma]
    assert others == ((sa, sb, ws, counts) if n == 32 else (c, sa, sb, ws, counts))
    assert pointer == ("pointer", (a, b, c, sa, sb, ws, counts))


@pytest.mark.parametrize("c_ptr", [False, True])
@pytest.mark.parametrize("b_kmajor", [False, True])
def test_matmul_follow_passes_c_by_descriptor_or_by_pointer(c_ptr, b_kmajor):
    """The 16-bit GEMM's TMA route the same way: descriptors of A, B (Bᵀ's rows when
    b_kmajor) and C, or, where the route says c_ptr, of A and B with C first among the
    pointers, in the slot the kernel's c_desc takes."""
    torch = pytest.importorskip("torch")
    from swizzlekit.kernels.triton.matmul import _follow
    from swizzlekit.kernels.triton.routes import Route

    a = torch.ones(48, 64, dtype=torch.float16)
    b = torch.ones(32, 64, dtype=torch.float16) if b_kmajor else torch.ones(64, 32,
                                                                           dtype=torch.float16)
    c = torch.empty(48, 32, dtype=torch.float16)
    ws, counts = torch.ones(1), torch.ones(1)
    plan = _RecordingPlan()
    assert _follow(Route(("k",), 1, True, b_kmajor, c_ptr=c_ptr), plan, a, b, c, ws,
                   counts) is c
    ((kind, tensors, descs, others),) = plan.calls
    assert kind == "tma" and tensors == ((a, b) if c_ptr else (a, b, c))
    assert [d.block_shape for d in descs] == [[16, 16]] * len(tensors)
    assert others == ((c, ws, counts) if c_ptr else (ws, counts))


def test_tma_kernels_key_their_autotuners_on_element_sizes():
    """Descriptors carry no dtype Triton's autotuner keys on (tensors do: the pointer kernels'
    keys need none), so the TMA kernels name the element sizes that decide which configs fit;
    the GPU tier runs a 16-bit call and then fp32 at the same sizes."""
    from swizzlekit.kernels.triton import matmul, scaled

    assert "ELEM_BYTES" in matmul._matmul_tma_kernel.keys
    assert "OUT_BYTES" in scaled._scaled_tma_kernel.keys
    assert "ELEM_BYTES" in matmul._matmul_tma_kernel.fn.arg_names or \
        "ELEM_BYTES" in matmul._matmul_tma_kernel.fn.fn.arg_names


def test_kept_makes_an_entry_once_per_key_and_keeps_false_answers():
    """``PlanCache.kept``: the first call of a key makes its entry, later calls reuse it; a
    False answer (the plain plan won) is an answer too, and None is never kept."""
    from swizzlekit.kernels.triton.plans import PlanCache

    cache, made = PlanCache(), []

    def make(value):
        made.append(value)
        return value

    assert cache.kept("a", lambda: make(False)) is False
    assert cache.kept("a", lambda: make(True)) is False and made == [False]
    assert cache.kept("b", lambda: make(2)) == 2 and cache.kept("b", lambda: make(3)) == 2
    assert cache.kept("c", lambda: make(None)) is None
    assert cache.kept("c", lambda: make(1)) == 1 and made == [False, 2, None, 1]
