"""CUTLASS's Hopper GEMM in clusters of two CTAs (``cutlass_gemm.cu``), built by nvcc on first
use and called through ctypes.

Its CTAs pair up along M and share B's tiles by TMA multicast, which reads a B whose rows do
not start on 64-byte boundaries (N not a multiple of 32) at about the speed of aligned rows:
at 3000x5000x4000 bf16 on an H100 it ran 0.91-0.97x cuBLAS, the same kernel without clusters
0.76x, and Triton's 128x256 tiles on B's aligned copy 0.82x (docs/data/bench/cutlass_probe/).
Triton 3.6 gives no kernel clusters. It needs an sm_90 GPU, nvcc, and CUTLASS's headers (the
``nvidia-cutlass`` wheel, installed without its dependencies). Its tiles run in the order of
CUTLASS's persistent tile scheduler, left at its defaults: clusters rastered along M where the
grid has more tile columns than rows, else along N, with no swizzle. Three builds of each
element type (:data:`TILES16`): 128x256 tiles in pairs along M (B's tile shared), and 256x128
and 256x192 in pairs along N (A's tile shared).

The shared library is cached (:func:`swizzlekit.kernels.cuda.nvrtc.cache_dir`, "cutlass") by
a hash of the source and its local headers, nvcc's flags and version, and the headers'
version (not their folder): the first build of an element type and tiles takes about a
minute.

>>> ELEMENTS["bfloat16"]
'cutlass::bfloat16_t'
>>> build("float32")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: dtype 'float32' is not valid; choose one of: bfloat16, float16
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import hashlib
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

from swizzlekit.errors import SwizzleKitError, ToolError, check_choice, check_int

__all__ = ["ELEMENTS", "ALIGN", "CONFIG", "TILES16", "BUILD_TIMEOUT_S", "NVCC_FLAGS", "CODES",
           "headers", "nvcc", "build", "build_all", "compile_library", "local_headers",
           "entry_points", "scratch", "run_entry", "failed", "rows_aligned", "cutlass_matmul",
           "launch_matmul"]

#: The torch dtypes it runs (by name) and CUTLASS's element type for each.
ELEMENTS = {"bfloat16": "cutlass::bfloat16_t", "float16": "cutlass::half_t"}
#: Elements a row's stride and each pointer must be a multiple of (16 bytes), for TMA.
ALIGN = 8
#: Its tile (M x N x K) and cluster (CTAs along M x N), as a plan's config reads.
CONFIG = "128x256x64/c2x1"
#: Every build's tiles, by config: (tile M, tile N, CTAs a cluster along M, along N).
TILES16 = {CONFIG: (128, 256, 2, 1), "256x128x64/c1x2": (256, 128, 1, 2),
           "256x192x64/c1x2": (256, 192, 1, 2)}
#: The longest nvcc may take to build one element type (seconds).
BUILD_TIMEOUT_S = 900
_SOURCE = Path(__file__).with_name("cutlass_gemm.cu")
#: nvcc's flags for every CUTLASS library (sm_90a: wgmma, TMA multicast, clusters).
NVCC_FLAGS = ("-std=c++17", "-O3", "-DNDEBUG", "-arch=sm_90a", "--expt-relaxed-constexpr",
              "-shared", "-Xcompiler", "-fPIC")
#: What the library's return codes mean.
CODES = {1: "CUTLASS cannot run these arguments", 2: "its workspace was too small",
         3: "its initialization failed", 4: "the launch failed"}


def headers() -> tuple[Path, str] | None:
    """CUTLASS's include folder and version (from the ``nvidia-cutlass`` wheel), or None."""
    try:
        import cutlass_library
    except ImportError:
        return None
    root = Path(cutlass_library.__file__).parent / "source" / "include"
    version = getattr(cutlass_library, "__version__", "")
    return (root, version) if (root / "cutlass" / "cutlass.h").exists() else None


def nvcc() -> str | None:
    """The nvcc on ``PATH``, or under ``$CUDA_HOME`` or /usr/local/cuda, or None."""
    found = shutil.which("nvcc")
    for root in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if not found and root and (Path(root) / "bin" / "nvcc").exists():
            found = str(Path(root) / "bin" / "nvcc")
    return found


def build(dtype: str = "bfloat16", tiles: str = CONFIG) -> Path:
    """The shared library of ``cutlass_gemm.cu`` for ``dtype`` ("bfloat16" or "float16") in
    ``tiles`` (one of :data:`TILES16`), compiled by nvcc unless cached. Raises
    :class:`~swizzlekit.errors.ToolError` where nvcc or CUTLASS's headers are missing, or
    nvcc fails."""
    check_choice("dtype", dtype, tuple(ELEMENTS))
    check_choice("tiles", tiles, tuple(TILES16))
    flags = (*NVCC_FLAGS, f"-DSWIZZLEKIT_ELEMENT={ELEMENTS[dtype]}")
    stem, what = f"gemm_{dtype}", f"CUTLASS's GEMM for {dtype}"
    if tiles != CONFIG:
        tm, tn, cm, cn = TILES16[tiles]
        flags += (f"-DSWIZZLEKIT_TILE_M={tm}", f"-DSWIZZLEKIT_TILE_N={tn}",
                  f"-DSWIZZLEKIT_CLUSTER_M={cm}", f"-DSWIZZLEKIT_CLUSTER_N={cn}")
        stem, what = f"{stem}_{tm}x{tn}_c{cm}x{cn}", f"{what} in {tiles}"
    return compile_library(_SOURCE, flags, stem, what)


def compile_library(source: Path, flags: tuple, stem: str, what: str) -> Path:
    """``source`` compiled by nvcc with ``flags`` and CUTLASS's headers into a shared library
    ``stem_<hash>.so`` in the cache (:func:`swizzlekit.kernels.cuda.nvrtc.cache_dir`,
    "cutlass"), unless there; the hash covers the source, its :func:`local_headers`, the flags,
    nvcc's version and CUTLASS's headers' version. One build of a library at a time (a file
    lock); ``what`` names it in the warning and errors."""
    found, compiler = headers(), nvcc()
    if found is None:
        raise ToolError("CUTLASS's headers are not installed (python3 -m pip install --no-deps "
                        "nvidia-cutlass==4.2.0.0)")
    if compiler is None:
        raise ToolError("nvcc is not on PATH, nor under $CUDA_HOME or /usr/local/cuda")
    include, version = found
    key = hashlib.sha256("\n".join([source.read_text(), *local_headers(source), *flags,
                                     _nvcc_version(compiler), version]).encode())
    from swizzlekit.kernels.cuda.nvrtc import cache_dir

    out = cache_dir("cutlass") / f"{stem}_{key.hexdigest()[:16]}.so"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)                # one build per library at a time
        if not out.exists():
            warnings.warn(f"swizzlekit: building {what} with nvcc (once, about a minute or "
                          f"two; cached in {out.parent})", stacklevel=3)
            tmp = out.with_suffix(f".{os.getpid()}.tmp")
            try:
                done = subprocess.run([compiler, *flags, f"-I{include}", str(source), "-o",
                                       str(tmp)],
                                      capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
            except (OSError, subprocess.SubprocessError) as e:
                tmp.unlink(missing_ok=True)
                raise ToolError(f"nvcc could not build {what}: {e}") from e
            if done.returncode:
                tmp.unlink(missing_ok=True)
                log = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
                raise ToolError(f"nvcc could not build {what} (exit {done.returncode}): "
                                + (log[0] if log else "no output"))
            os.replace(tmp, out)
    return out


@functools.lru_cache(maxsize=None)
def _nvcc_version(compiler: str) -> str:
    """``compiler --version``'s output, asked once a process (each route's first call looks
    its libraries up in the cache by a key that holds it)."""
    try:
        return subprocess.run([compiler, "--version"], capture_output=True, text=True,
                              timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise ToolError(f"nvcc --version failed: {e}") from e


def build_all(builds, at_once: int | None = None) -> list:
    """Each of ``builds`` (callables that build a library or find it in the cache) run, up to
    ``at_once`` at a time (default: all), in threads: each build is an nvcc process, and the
    GIL is free meanwhile. Their results in order; the first error, in order, raised.

    >>> build_all([lambda: 1, lambda: 2], at_once=0)
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: at_once must be at least 1; got 0
    """
    builds = list(builds)
    if not all(map(callable, builds)):
        raise SwizzleKitError(f"builds must be callables; got {builds!r}")
    if at_once is not None:
        check_int("at_once", at_once, 1)
    workers = max(1, min(len(builds), at_once or len(builds)))
    if workers == 1:
        return [build() for build in builds]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda build: build(), builds))


def local_headers(source: Path) -> list[str]:
    """The text of each header ``source`` includes by quotes from its own folder (the shared
    run sequence, ``cutlass_run.cuh``), in the order included: what the cache key hashes
    besides the source, so that a change to one rebuilds every library that includes it."""
    names = re.findall(r'^\s*#\s*include\s+"([^"]+)"', source.read_text(), re.MULTILINE)
    return [(source.parent / n).read_text() for n in names if (source.parent / n).is_file()]


def entry_points(path: Path, what: str, gemm: str, gemm_args: list, workspace: str,
                 workspace_ints: int):
    """The library at ``path``'s GEMM (returning an int code) and workspace-size functions,
    typed: ``gemm_args`` and ``workspace_ints`` ints. A library that does not load is a
    :class:`~swizzlekit.errors.ToolError` naming ``what``."""
    try:
        lib = ctypes.CDLL(str(path))
    except OSError as e:
        raise ToolError(f"{what} library {path} does not load: {e}") from e
    try:
        run, size = getattr(lib, gemm), getattr(lib, workspace)
    except AttributeError as e:
        raise ToolError(f"{what} library {path} lacks its entry points: {e}") from e
    run.restype, size.restype = ctypes.c_int, ctypes.c_size_t
    run.argtypes, size.argtypes = gemm_args, [ctypes.c_int] * workspace_ints
    return run, size


@functools.lru_cache(maxsize=None)
def _library(dtype: str, tiles: str = CONFIG):
    args = ([ctypes.c_void_p] * 3 + [ctypes.c_int] * 3 + [ctypes.c_long] * 3
            + [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)])
    return entry_points(build(dtype, tiles), "CUTLASS's GEMM", "swizzlekit_cutlass_gemm", args,
                        "swizzlekit_cutlass_workspace", 3)


_WORKSPACE: dict = {}


@functools.lru_cache(maxsize=1024)
def _workspace_bytes(dtype: str, device: int, M: int, N: int, K: int,
                     tiles: str = CONFIG) -> int:
    """The workspace a call of this shape needs on ``device`` (the current device when
    asked), asked of the library once."""
    return _library(dtype, tiles)[1](M, N, K)


def scratch(device, stream: int, nbytes: int):
    """A scratch buffer of at least ``nbytes`` on ``device``, kept between calls: one for each
    stream (``stream``: its handle), so that GEMMs on two streams at once (stream-K's partial
    sums among them) never share one."""
    import torch

    buf = _WORKSPACE.get((device, stream))
    if buf is None or buf.numel() < nbytes:
        buf = _WORKSPACE[device, stream] = torch.empty(max(nbytes, 1), dtype=torch.uint8,
                                                       device=device)
    return buf


def run_entry(gemm, args: tuple, device, nbytes) -> tuple[int, int]:
    """``gemm(*args, workspace, its bytes, stream, &cuda_error)`` on ``device``'s current
    stream with :func:`scratch`'s buffer of ``nbytes()`` bytes (a callable, asked on
    ``device``): the library's code and CUDA's error. ``device`` is made current only for the
    call and only where it is not (a kernel launches on the current device's streams): the
    host's share of a call stays small."""
    import torch

    if device.index != torch.cuda.current_device():
        with torch.cuda.device(device):
            return run_entry(gemm, args, device, nbytes)
    stream = torch.cuda.current_stream().cuda_stream
    ws, err = scratch(device, stream, nbytes()), ctypes.c_int(0)
    code = gemm(*args, ws.data_ptr(), ws.numel(), stream, ctypes.byref(err))
    return code, err.value


def failed(what: str, shape: tuple, code: int, error: int) -> ToolError:
    """The :class:`~swizzlekit.errors.ToolError` of a library's nonzero ``code``."""
    return ToolError(f"{what} at {'x'.join(map(str, shape))}: {CODES.get(code, f'code {code}')}"
                     + (f" (CUDA error {error})" if error else ""))


def rows_aligned(t) -> bool:
    """Whether 2-D tensor ``t`` is row-major in rows of 16-byte multiples, 16-byte multiples
    apart, on a 16-byte-aligned pointer: what TMA reads and writes (rows apart and the
    pointer) and CUTLASS's GEMMs take (their rows too, as ``can_implement`` checks)."""
    size = t.element_size()
    return (t.stride(1) == 1 and t.stride(0) >= t.shape[1] and t.shape[1] * size % 16 == 0
            and t.stride(0) * size % 16 == 0 and t.data_ptr() % 16 == 0)


def _check_matrix(name: str, t, rows: int | None = None, cols: int | None = None) -> None:
    import torch

    if not isinstance(t, torch.Tensor) or t.dim() != 2:
        dims = f" of {t.dim()} dimensions" if isinstance(t, torch.Tensor) else ""
        raise SwizzleKitError(f"{name} must be a 2-D torch tensor; got {type(t).__name__}{dims}")
    if str(t.dtype).removeprefix("torch.") not in ELEMENTS:
        raise SwizzleKitError(f"{name}'s dtype {t.dtype} is not valid; choose one of: "
                              + ", ".join(ELEMENTS))
    if t.device.type != "cuda":
        raise SwizzleKitError(f"{name} must be on a CUDA device; it is on {t.device}")
    if (rows, cols) != (None, None) and tuple(t.shape) != (rows, cols):
        raise SwizzleKitError(f"{name} must be {rows} x {cols}; got {tuple(t.shape)}")
    if min(t.shape) < 1 or max(t.shape) >= 2**31:
        raise SwizzleKitError(f"{name}'s sides must be from 1 to 2**31 - 1; got {tuple(t.shape)}")
    if not rows_aligned(t):
        raise SwizzleKitError(f"{name} must be row-major with rows of 16-byte multiples, 16 "
                              f"bytes apart and aligned (strides ({ALIGN}k, 1), {ALIGN}j "
                              f"columns, a 16-byte-aligned pointer); got {tuple(t.shape)} in "
                              f"strides {t.stride()} (swizzlekit.kernels.matmul takes any)")


def cutlass_matmul(a, b, *, out=None, tiles: str = CONFIG):
    """``a @ b`` for row-major 16-bit torch tensors on an sm_90 GPU, by CUTLASS's GEMM in
    clusters of two CTAs, in ``tiles`` (one of :data:`TILES16`); ``out`` (M x N, same dtype)
    may be given. Rows must be 16-byte multiples apart and pointers 16-byte aligned (TMA's
    rule)."""
    import torch

    check_choice("tiles", tiles, tuple(TILES16))
    _check_matrix("a", a)
    _check_matrix("b", b)
    if a.dtype != b.dtype or a.device != b.device:
        raise SwizzleKitError(f"a and b must share dtype and device; got {a.dtype} on "
                              f"{a.device} and {b.dtype} on {b.device}")
    (M, K), N = a.shape, b.shape[1]
    if b.shape[0] != K:
        raise SwizzleKitError(f"a is {M} x {K} but b is {b.shape[0]} x {N}: inner sizes differ")
    if out is None:
        out = torch.empty((M, N), dtype=a.dtype, device=a.device)
    _check_matrix("out", out, M, N)
    if out.dtype != a.dtype or out.device != a.device:
        raise SwizzleKitError(f"out must be {a.dtype} on {a.device}; got {out.dtype} on "
                              f"{out.device}")
    capability = torch.cuda.get_device_capability(a.device)
    if capability != (9, 0):
        raise ToolError(f"CUTLASS's GEMM is built for sm_90a (Hopper); this GPU is "
                        f"sm_{capability[0]}{capability[1]}")
    return launch_matmul(a, b, out, tiles)


def launch_matmul(a, b, out, tiles: str = CONFIG):
    """:func:`cutlass_matmul`'s launch, for arguments its door passed (a repeat call of a
    fingerprint whose first call was checked): no checks, the least host time."""
    (M, K), N = a.shape, b.shape[1]
    dtype = str(a.dtype).removeprefix("torch.")
    code, error = run_entry(_library(dtype, tiles)[0], (a.data_ptr(), b.data_ptr(),
                                                        out.data_ptr(), M, N, K, a.stride(0),
                                                        b.stride(0), out.stride(0)),
                            a.device,
                            lambda: _workspace_bytes(dtype, a.device.index, M, N, K, tiles))
    if code:
        raise failed(f"CUTLASS's GEMM in {tiles}", (M, N, K), code, error)
    return out
