"""Compile CUDA C++ at run time with NVRTC, through cuda-python's ``cuda.bindings``.

Why ``cuda.bindings`` rather than ``cuda.core``: it is the thin, stable C-API mirror, so the
same code runs on this project's CPU machines (NVRTC from the ``nvidia-cuda-nvrtc`` wheel) and
on the GPU machine (cuda-bindings 13 with CUDA 13.0), where ``cuda.core``'s API differs between
releases. Compiling needs no GPU.

Results are cached on disk (``$SWIZZLEKIT_CACHE`` or ``~/.cache/swizzlekit/nvrtc``) by a hash
of the source, the options and the architecture. A failed compile raises
:class:`CompileError` carrying NVRTC's log; ptxas's verbose report (registers, shared memory,
spills per kernel) is parsed into :attr:`Compiled.resources`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from swizzlekit.errors import ToolError, check_choice

__all__ = ["CompileError", "Compiled", "compile_cuda", "ARCHS", "check_arch", "cache_dir", "cuda_include", "parse_ptxas"]


class CompileError(ToolError):
    """NVRTC rejected the source; the message holds its log."""


#: The architectures NVRTC 12.8-13.0 compile for (``nvrtcGetSupportedArchs``), with the
#: arch-specific "a" targets of Hopper and Blackwell.
ARCHS = ("sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
         "sm_103", "sm_103a", "sm_120", "sm_120a")


def check_arch(arch: str) -> str:
    """``arch`` if NVRTC builds for it; otherwise a one-line error listing the valid ones.

    >>> check_arch("sm_99")
    Traceback (most recent call last):
    ...
    swizzlekit.errors.SwizzleKitError: arch 'sm_99' is not valid; choose one of: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_103, sm_103a, sm_120, sm_120a
    """
    return check_choice("arch", arch, ARCHS)


@dataclass(frozen=True)
class Compiled:
    arch: str
    cubin: bytes
    ptx: str
    log: str
    lowered: dict[str, str]                     # name expression -> mangled kernel name
    resources: dict[str, dict] = field(default_factory=dict)


def cuda_include() -> str | None:
    """The CUDA toolkit's include folder (for headers like mma.h), or None."""
    candidates = [os.environ.get("CUDA_HOME", ""), os.environ.get("CUDA_PATH", ""),
                  "/usr/local/cuda"]
    try:
        import nvidia.cuda_runtime as rt  # the pip wheel's headers
        candidates += [str(Path(p)) for p in rt.__path__]
    except ImportError:
        pass
    for c in candidates:
        inc = Path(c) / "include" if c else None
        if inc and (inc / "mma.h").exists():
            return str(inc)
    return None


def cache_dir(kind: str = "nvrtc") -> Path:
    """Where compiled ``kind`` ("nvrtc": cubins; "cutlass": nvcc's shared libraries) is cached:
    ``$SWIZZLEKIT_CACHE/kind``, by default under ``~/.cache/swizzlekit``."""
    return Path(os.environ.get("SWIZZLEKIT_CACHE", Path.home() / ".cache" / "swizzlekit")) / kind


_PTXAS_FN = re.compile(r"Compiling entry function '([^']+)'")
_PTXAS_USED = re.compile(r"Used (\d+) registers.*?(?:, used \d+ barriers)?(?:, (\d+) bytes smem)?")


def parse_ptxas(log: str) -> dict[str, dict]:
    """Registers, shared memory, stack and spills per kernel from ptxas's verbose report.

    >>> parse_ptxas("ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\\n"
    ...             "ptxas info    : Function properties for _Z1kv\\n"
    ...             "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\\n"
    ...             "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 400 bytes cmem[0]")
    {'_Z1kv': {'registers': 40, 'smem_bytes': 2048, 'stack_bytes': 8, 'spill_stores': 4, 'spill_loads': 4}}
    """
    out: dict[str, dict] = {}
    current = None
    for line in log.splitlines():
        m = _PTXAS_FN.search(line)
        if m:
            current = m.group(1)
            out[current] = {"registers": 0, "smem_bytes": 0, "stack_bytes": 0,
                            "spill_stores": 0, "spill_loads": 0}
            continue
        if current is None:
            continue
        if "bytes stack frame" in line:
            nums = [int(x) for x in re.findall(r"(\d+) bytes", line)]
            if len(nums) >= 3:
                out[current].update(stack_bytes=nums[0], spill_stores=nums[1], spill_loads=nums[2])
        m = re.search(r"Used (\d+) registers", line)
        if m:
            out[current]["registers"] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            out[current]["smem_bytes"] = int(s.group(1)) if s else 0
    return out


def _check(result, what: str):
    err = result[0]
    if int(err) != 0:
        raise CompileError(f"NVRTC {what} failed: {err}")
    return result[1:] if len(result) > 2 else (result[1] if len(result) == 2 else None)


def compile_cuda(source: str, name_expressions: list[str], arch: str = "sm_90",
                 options: tuple[str, ...] = (), filename: str = "kernel.cu",
                 use_cache: bool = True) -> Compiled:
    """Compile ``source`` for ``arch``; ``name_expressions`` are the kernels to get
    (template instantiations like ``"sgemm_reg<128,128,8,8,8,true,true>"`` included)."""
    check_arch(arch)
    opts = [f"--gpu-architecture={arch}", "--std=c++17", "-default-device",
            "--ptxas-options=--verbose", *options]
    if "#include <mma.h>" in source:
        inc = cuda_include()
        if inc is None:
            raise ToolError("this kernel includes <mma.h>, which NVRTC finds in the CUDA "
                            "toolkit: set CUDA_HOME to a toolkit with include/mma.h")
        opts.append(f"--include-path={inc}")
    try:
        from cuda.bindings import nvrtc
    except ImportError as e:
        raise ToolError("compiling CUDA needs cuda-python: pip install "
                        "'swizzlekit[cuda]' (cuda-bindings and nvidia-cuda-nvrtc)") from e
    try:
        version = _check(nvrtc.nvrtcVersion(), "version")
    except Exception as e:                     # the library itself could not be loaded
        if isinstance(e, CompileError):
            raise
        raise ToolError(f"NVRTC is not available: {str(e).splitlines()[0]}") from e
    # the compiler's version is part of the key: a newer NVRTC must not reuse older cubins
    key = hashlib.sha256(json.dumps([source, sorted(name_expressions), opts, list(version)])
                         .encode()).hexdigest()
    cached = cache_dir() / f"{key}.json"
    if use_cache and cached.exists():
        meta = json.loads(cached.read_text())
        return Compiled(arch, (cache_dir() / f"{key}.cubin").read_bytes(), meta["ptx"],
                        meta["log"], meta["lowered"], parse_ptxas(meta["log"]))
    prog = _check(nvrtc.nvrtcCreateProgram(source.encode(), filename.encode(), 0, [], []),
                  "create")
    for expr in name_expressions:
        _check((nvrtc.nvrtcAddNameExpression(prog, expr.encode())[0], None), "name expression")
    enc = [o.encode() for o in opts]
    status = nvrtc.nvrtcCompileProgram(prog, len(enc), enc)[0]
    size = _check(nvrtc.nvrtcGetProgramLogSize(prog), "log size")
    log_buf = b" " * size
    nvrtc.nvrtcGetProgramLog(prog, log_buf)
    log = log_buf.decode(errors="replace").rstrip("\x00 ")
    if int(status) != 0:
        raise CompileError(f"NVRTC could not compile {filename} for {arch}:\n{log}")
    lowered = {}
    for expr in name_expressions:
        name = _check(nvrtc.nvrtcGetLoweredName(prog, expr.encode()), "lowered name")
        lowered[expr] = name.decode() if isinstance(name, bytes) else str(name)
    size = _check(nvrtc.nvrtcGetCUBINSize(prog), "cubin size")
    cubin = b" " * size
    nvrtc.nvrtcGetCUBIN(prog, cubin)
    size = _check(nvrtc.nvrtcGetPTXSize(prog), "ptx size")
    ptx = b" " * size
    nvrtc.nvrtcGetPTX(prog, ptx)
    ptx_text = ptx.decode(errors="replace").rstrip("\x00")
    if use_cache:
        cache_dir().mkdir(parents=True, exist_ok=True)
        (cache_dir() / f"{key}.cubin").write_bytes(cubin)
        cached.write_text(json.dumps({"ptx": ptx_text, "log": log, "lowered": lowered}))
    return Compiled(arch, cubin, ptx_text, log, lowered, parse_ptxas(log))
