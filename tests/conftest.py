"""Test tiers: plain CPU (default), Triton interpreter, and GPU (``-m gpu``; skipped without)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "src" / "swizzlekit" / "data"


def access_index(rows: int, cols: int, elem_bytes: int, accesses):
    """The placement index (``smem.analyze.placement_index``) of access specs on a tile, every
    placement of every spec, or None where a spec has no room on the tile."""
    from swizzlekit.errors import SwizzleKitError
    from swizzlekit.smem.access import parse_access
    from swizzlekit.smem.analyze import placement_index

    try:
        placements = [p for a in accesses
                      for p in parse_access(a).placements(rows, cols, elem_bytes)]
    except SwizzleKitError:
        return None
    return placement_index(placements, cols)


def _has_gpu() -> bool:
    if shutil.which("nvidia-smi") is None:
        return False
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


HAS_GPU = _has_gpu()

# Tier 2: without a GPU, Triton kernels run in Triton's interpreter on CPU tensors. Triton
# reads this when a kernel is decorated, so it is set before any test imports triton.
if not HAS_GPU:
    os.environ.setdefault("TRITON_INTERPRET", "1")


def pytest_runtest_logreport(report):
    """With ``SWIZZLEKIT_DURATIONS=FILE``, each test's phases and seconds as they finish (a
    tier cut off by a time limit still leaves what it ran)."""
    path = os.environ.get("SWIZZLEKIT_DURATIONS")
    if path:
        with open(path, "a") as f:
            f.write(f"{report.duration:.3f}\t{report.when}\t{report.outcome}\t{report.nodeid}\n")


def pytest_collection_modifyitems(config, items):
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU (GPU tier); none on this machine")
    for item in items:
        if item.get_closest_marker("gpu") or item.get_closest_marker("gpu_slow"):
            item.add_marker(skip)


# ------------------------------------------------------------------- CPU tier fixtures
@pytest.fixture
def gpu_config_lists(monkeypatch):
    """The GPU's config lists for the kernels' prune, in a process whose autotuners hold the
    interpreter's one tile. The kernel modules are imported first: their autotuners take
    their config lists when decorated, and must keep the interpreter's."""
    import importlib

    importlib.import_module("swizzlekit.kernels.triton.matmul")
    importlib.import_module("swizzlekit.kernels.triton.scaled")
    from swizzlekit.kernels.triton import matmul_configs as mc, scaled_configs as sc

    for module in (mc, sc):
        monkeypatch.setattr(module, "_INTERPRET", False)
    mc._labels.cache_clear()
    sc._labels.cache_clear()
    yield
    mc._labels.cache_clear()
    sc._labels.cache_clear()


# ------------------------------------------------------------------- GPU tier fixtures
@pytest.fixture(scope="module")
def cutlass_ready():
    """Skips the test off an sm_90 GPU or without nvcc and the nvidia-cutlass wheel's headers
    (what CUTLASS's GEMMs need, :mod:`swizzlekit.kernels.cuda.cutlass`)."""
    import torch

    from swizzlekit.kernels.cuda import cutlass

    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("needs an sm_90 GPU")
    if cutlass.headers() is None or cutlass.nvcc() is None:
        pytest.skip("needs nvcc and the nvidia-cutlass wheel's headers")


@pytest.fixture
def padded_route(monkeypatch):
    """``check(module, run, mark="pad")``: a ragged call's route through its copies. With
    ``module``'s plans and routes cleared, ``run()`` (a fresh checked call) plans the copies'
    call, then keeps the copies' route and adopts it for the ragged call (marked ``mark``:
    ``pad``, or ``copies`` for a 16-bit GEMM's copies for TMA); two more calls follow it past
    a door that would fail. Returns the ragged call's route."""
    def check(module, run, mark="pad"):
        module.PLANS.clear()
        module.ROUTES.clear()
        door = module._check
        run()                                   # plans the copies' call
        run()                                   # the copies' route, kept and adopted
        routes = list(module.ROUTES._plans.values())
        assert [getattr(r, mark) for r in routes] == [False, True]
        monkeypatch.setattr(module, "_check", lambda *args: 1 / 0)
        run()
        run()
        monkeypatch.setattr(module, "_check", door)
        return routes[1]
    return check


@pytest.fixture
def past_the_door(monkeypatch):
    """``calls(operands, bound)``: four ``matmul`` calls on fresh operands (``operands()``
    returns ``(a, b)``), each checked against float64 into a NaN-poisoned C within
    :data:`~swizzlekit.kernels.triton.matmul.TOLERANCE` ``[bound]``; from the third the door
    fails, so the calls must follow the route the first ones kept. Returns the last ``(a, b)``."""
    def calls(operands, bound):
        from swizzlekit.kernels import matmul
        from swizzlekit.kernels.triton import matmul as mm
        from swizzlekit.lab.verify import poisoned, relative_error

        door = mm._check
        for call in range(4):
            if call == 2:                       # from here the route must be followed
                monkeypatch.setattr(mm, "_check", lambda *args: 1 / 0)
            a, b = operands()
            c = matmul(a, b, out=poisoned(a.shape[0], b.shape[1], a.dtype, "cuda"))
            err = relative_error(c, a, b)
            assert err == err and err < mm.TOLERANCE[bound], (call, err)
        monkeypatch.setattr(mm, "_check", door)
        return a, b
    return calls
