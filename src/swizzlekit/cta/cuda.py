"""CTA orders as CUDA C++ device functions (``orders.cuh``), for your own kernels.

>>> "sk_grouped" in cuda_source()
True
>>> CUDA_FUNCTIONS["grouped"]
'sk_grouped(pid, tiles_m, tiles_n, group)'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CUDA_FUNCTIONS", "cuda_source", "header_path"]

#: Order name -> the device function's call, in the names of its parameters.
CUDA_FUNCTIONS = {
    "row": "sk_row(pid, tiles_m, tiles_n)",
    "col": "sk_col(pid, tiles_m, tiles_n)",
    "grouped": "sk_grouped(pid, tiles_m, tiles_n, group)",
    "grouped_n": "sk_grouped_n(pid, tiles_m, tiles_n, group)",
    "grouped_persistent": "sk_grouped_persistent(pid, tiles_m, tiles_n, group)",
    "strip": "sk_strip(pid, tiles_m, tiles_n, width)",
    "strip_snake": "sk_strip_snake(pid, tiles_m, tiles_n, width)",
    "snake": "sk_snake(pid, tiles_m, tiles_n)",
    "cutlass": "sk_cutlass(pid, tiles_m, tiles_n, log_tile)  // grid: sk_cutlass_ctas(...)",
    "zlayer": "sk_zlayer(pid, tiles_m, tiles_n, layers)  // grid: sk_zlayer_ctas(...)",
    "morton": "sk_morton(pid, log2)  // 2^log2 x 2^log2 tiles",
    "hilbert": "sk_hilbert(pid, log2)  // 2^log2 x 2^log2 tiles",
}


def header_path() -> Path:
    """Where ``orders.cuh`` is, to ``#include`` it (or pass its folder with ``-I``)."""
    return Path(__file__).with_name("orders.cuh")


def cuda_source() -> str:
    """The header's text, to paste into NVRTC or a kernel file."""
    return header_path().read_text()
