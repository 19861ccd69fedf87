"""GPU presets: SMs, L2, banks, memory and peak rates, each with where it came from.

"measured" means read on this project's H200 (``src/swizzlekit/data/ceilings_h200.json``,
2026-11-21); "datasheet" means the vendor's published figure; "seed 002" the seed's device.

>>> gpu("h200").sms, gpu("h200").l2_bytes // 2**20
(132, 60)
>>> gpu("b300")
Traceback (most recent call last):
...
swizzlekit.errors.SwizzleKitError: unknown GPU 'b300'; valid: h200, h100-sxm, h100-pcie, a100, rtx4090, rtx4050-laptop
"""

from __future__ import annotations

from dataclasses import dataclass, field

from swizzlekit.errors import SwizzleKitError

__all__ = ["GPU", "GPUS", "SMEM_LIMIT", "DEVICE_NAMES", "gpu", "preset_of", "residency",
           "residency_limits"]

MiB = 2**20


@dataclass(frozen=True)
class GPU:
    name: str
    sms: int
    l2_bytes: int
    l2_partitions: int
    dram_gbps: float                   # bytes read + written per second, in GB/s
    peak_tflops: dict[str, float] = field(default_factory=dict)
    smem_per_sm: int = 228 * 1024
    smem_per_block: int = 227 * 1024    # the most one block may opt in to (cudaFuncSetAttribute)
    banks: int = 32
    bank_bytes: int = 4
    l2_sector_bytes: int = 32          # the L2's unit of lookup and of ncu's sector counters
    memory_bytes: int = 80 * 10**9     # device memory (datasheet)
    sources: str = ""
    # occupancy rules (CUDA Occupancy Calculator, CUDA C++ Programming Guide, "Compute
    # Capabilities" table): the same for sm_80 and sm_90 except where a preset says otherwise
    max_threads_per_sm: int = 2048
    max_blocks_per_sm: int = 32
    regs_per_sm: int = 65536
    max_regs_per_thread: int = 255
    reg_alloc_unit: int = 256           # registers are allocated per warp in units of 256
    warp_alloc_granularity: int = 4     # warps per SM under the register limit: a multiple of 4
    smem_alloc_unit: int = 128
    smem_reserved_per_block: int = 1024  # the runtime's own shared memory per block (sm_80+)
    arch: str = "sm_90"
    # measured dispatch facts (``swizzlekit lab dispatch``), empty where not measured:
    # the L2 side (0 = the side of SM 0) of each SM by %smid, and the SMs in the order the
    # first wave of a one-CTA-per-SM launch fills them (the start rotates between launches)
    l2_side_of_sm: str = ""
    dispatch_order: tuple[int, ...] = ()
    # the spread of CTA durations (standard deviation over mean, after the first wave) with
    # one CTA per SM and with 2 or more: the median over the dispatch probe's traces (0 where
    # not measured: the L2 model's persistent grids then run round by round)
    cta_duration_cv: tuple[float, float] = (0.0, 0.0)


# The first-wave SM order of a GH100 die (the H200 and the H100 SXM): the probe's own launch,
# the same on both cards (docs/data/dispatch/h200/, .../h100/); later launches start at another
# point of the same cycle, after SMs 124-131.
_GH100_DISPATCH = (124, 125, 126, 127, 128, 129, 130, 131, 0, 1, 16, 17, 32, 33, 48, 49, 2, 3,
                   18, 19, 34, 35, 50, 51, 64, 65, 78, 79, 92, 93, 106, 107, 4, 5, 20, 21, 36,
                   37, 52, 53, 66, 67, 80, 81, 94, 95, 108, 109, 6, 7, 22, 23, 38, 39, 54, 55,
                   68, 69, 82, 83, 96, 97, 110, 111, 8, 9, 24, 25, 40, 41, 56, 57, 70, 71, 84,
                   85, 98, 99, 112, 113, 10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100,
                   101, 114, 115, 12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116,
                   117, 120, 121, 14, 15, 30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118,
                   119, 122, 123)
# The L2 side of each SM by %smid on a GH100 die, measured alike on both cards.
_GH100_SIDES = ("000000111111001100000011111100110000001111110011000000111111001100"
                "001111110011000011111100110000111111001100001111110011001100000000")

GPUS: dict[str, GPU] = {
    # H200 SXM: SMs and L2 as torch.cuda.get_device_properties reports them on our machine
    # (132, 62914560 B); copy bandwidth and cuBLAS rates measured (ceilings_h200.json);
    # dense datasheet peaks: bf16/fp16 989, TF32 494, fp32 67, fp8 1979 TFLOP/s; HBM3e 4.8 TB/s.
    "h200": GPU("NVIDIA H200 SXM", 132, 60 * MiB, 2, 4295.0,
                {"bf16": 989.0, "fp16": 989.0, "tf32": 494.0, "fp32": 67.0, "fp8": 1979.0,
                 "cublas_bf16_measured": 776.4, "cublas_tf32_measured": 354.6,
                 "cublas_fp32_measured": 51.0},
                l2_side_of_sm=_GH100_SIDES, dispatch_order=_GH100_DISPATCH,
                cta_duration_cv=(0.017, 0.058),
                memory_bytes=141 * 10**9,
                sources="SMs, L2, copy rate, cuBLAS: measured 2026-11-21; peaks: datasheet; "
                        "L2 sides, dispatch order, CTA duration spread: measured 2026-11-22 "
                        "(docs/cta.md)"),
    # H100 SXM5: 132 SMs, 50 MB L2 in two partitions, HBM3 3.35 TB/s (datasheet); the SM
    # sides, first-wave order and CTA duration spread measured as on the H200.
    "h100-sxm": GPU("NVIDIA H100 SXM", 132, 50 * MiB, 2, 3350.0,
                    {"bf16": 989.0, "fp16": 989.0, "tf32": 494.0, "fp32": 67.0, "fp8": 1979.0},
                    l2_side_of_sm=_GH100_SIDES, dispatch_order=_GH100_DISPATCH,
                    cta_duration_cv=(0.017, 0.05),
                    sources="SMs, L2, bandwidth, peaks: datasheet / Hopper whitepaper; L2 "
                            "sides, dispatch order, CTA duration spread: measured 2026-11-27 "
                            "(docs/data/dispatch/h100/)"),
    # H100 PCIe: 114 SMs, 50 MB L2, HBM2e 2.0 TB/s; dense fp8 1513 TFLOP/s (datasheet).
    "h100-pcie": GPU("NVIDIA H100 PCIe", 114, 50 * MiB, 2, 2000.0,
                     {"bf16": 756.0, "fp16": 756.0, "tf32": 378.0, "fp32": 51.0, "fp8": 1513.0},
                     sources="datasheet"),
    # A100 SXM 80 GB: 108 SMs, 40 MB L2 in two partitions, 2.04 TB/s, 164 KB smem per SM.
    "a100": GPU("NVIDIA A100 SXM 80GB", 108, 40 * MiB, 2, 2039.0,
                {"bf16": 312.0, "fp16": 312.0, "tf32": 156.0, "fp32": 19.5},
                smem_per_sm=164 * 1024, smem_per_block=163 * 1024, arch="sm_80",
                sources="datasheet / Ampere whitepaper"),
    # RTX 4090 (AD102): 128 SMs, 72 MB L2, 1008 GB/s GDDR6X, 100 KB smem per SM.
    "rtx4090": GPU("NVIDIA GeForce RTX 4090", 128, 72 * MiB, 1, 1008.0,
                   {"fp16": 165.2, "bf16": 165.2, "tf32": 82.6, "fp32": 82.6},
                   smem_per_sm=100 * 1024, smem_per_block=99 * 1024, max_threads_per_sm=1536,
                   max_blocks_per_sm=24, arch="sm_89", memory_bytes=24 * 10**9,
                   sources="Ada whitepaper"),
    # RTX 4050 Laptop (AD107), seed 002's device (compute capability 8.9): 20 SMs (2560 CUDA
    # cores), 24 MB L2, 96-bit GDDR6 at 16 Gbps = 192 GB/s. L2 size is a lead, not measured.
    "rtx4050-laptop": GPU("NVIDIA GeForce RTX 4050 Laptop", 20, 24 * MiB, 1, 192.0,
                          {"fp32": 8.99}, smem_per_sm=100 * 1024, smem_per_block=99 * 1024,
                          max_threads_per_sm=1536, max_blocks_per_sm=24, arch="sm_89",
                          memory_bytes=6 * 10**9,
                          sources="seed 002 (device name, CC 8.9); vendor specs (leads)"),
}


#: The most shared memory an SM has on any preset (bytes): no tile layout, lane address or
#: swizzled offset of shared memory reaches past it.
SMEM_LIMIT = max(g.smem_per_sm for g in GPUS.values())


def gpu(name: str) -> GPU:
    """The preset ``name``; the error lists the valid names."""
    if not isinstance(name, str):
        raise SwizzleKitError(f"GPU preset must be a name; got {name!r}; valid: " + ", ".join(GPUS))
    key = name.lower()
    if key not in GPUS:
        raise SwizzleKitError(f"unknown GPU {name!r}; valid: " + ", ".join(GPUS))
    return GPUS[key]


#: What a device calls itself (``torch.cuda.get_device_name``, ``nvidia-smi``) and the preset
#: that describes it: the first pair whose words all appear in the name wins. An H100 NVL
#: (132 SMs) is described by the SXM preset.
DEVICE_NAMES = ((("H200",), "h200"), (("H100", "PCIe"), "h100-pcie"), (("H100",), "h100-sxm"),
                (("A100",), "a100"), (("RTX", "4090"), "rtx4090"),
                (("RTX", "4050", "Laptop"), "rtx4050-laptop"))


def preset_of(device_name: str) -> str | None:
    """The preset for a device's own name, or None where no preset describes it.

    >>> preset_of("NVIDIA H100 80GB HBM3"), preset_of("NVIDIA H200"), preset_of("NVIDIA B200")
    ('h100-sxm', 'h200', None)
    """
    if not isinstance(device_name, str):
        raise SwizzleKitError(f"a device name must be a string; got {device_name!r}")
    words = device_name.replace("-", " ").split()
    for needed, name in DEVICE_NAMES:
        if all(w in words for w in needed):
            return name
    return None


def _preset(g) -> GPU:
    return g if isinstance(g, GPU) else gpu(g)


def residency_limits(g: str | GPU, threads: int, regs_per_thread: int,
                     smem_bytes: int) -> dict[str, int]:
    """CTAs per SM allowed by each resource: ``warps``, ``blocks``, ``registers``, ``smem``.

    The occupancy calculator's rules: warps and blocks per SM; registers allocated per warp in
    units of ``reg_alloc_unit``, with the warps that fit rounded down to a multiple of
    ``warp_alloc_granularity``; shared memory per block plus the runtime's reserved 1 KiB,
    rounded up to ``smem_alloc_unit``, out of the SM's shared memory.

    >>> residency_limits("h200", 256, 128, 96 * 1024)
    {'warps': 8, 'blocks': 32, 'registers': 2, 'smem': 2}
    """
    from swizzlekit.errors import check_int

    g = _preset(g)
    threads = check_int("threads", threads, 1, 1024)
    regs = check_int("regs_per_thread", regs_per_thread, 0, g.max_regs_per_thread)
    smem = check_int("smem_bytes", smem_bytes, 0)
    if smem > g.smem_per_block:
        raise SwizzleKitError(f"smem_bytes {smem} is more than one block may have on {g.name} "
                              f"({g.smem_per_block})")
    warps = -(-threads // 32)
    per_warp = -(-regs * 32 // g.reg_alloc_unit) * g.reg_alloc_unit
    if per_warp == 0:
        by_regs = g.max_blocks_per_sm
    else:
        fit = g.regs_per_sm // per_warp // g.warp_alloc_granularity * g.warp_alloc_granularity
        by_regs = fit // warps
    per_block = -(-(smem + g.smem_reserved_per_block) // g.smem_alloc_unit) * g.smem_alloc_unit
    return {"warps": g.max_threads_per_sm // 32 // warps, "blocks": g.max_blocks_per_sm,
            "registers": by_regs, "smem": g.smem_per_sm // per_block}


def residency(g: str | GPU, threads: int, regs_per_thread: int, smem_bytes: int) -> int:
    """CTAs of one kernel resident on one SM of ``g`` at once (0: it cannot launch).

    ``threads`` per block, ``regs_per_thread`` (ptxas's report, Triton's ``n_regs``) and
    ``smem_bytes`` per block, static plus dynamic (Triton's ``metadata.shared``).

    >>> residency("h200", 256, 128, 96 * 1024)      # 128x128x64 fp16 tiles, 3 stages, 8 warps
    2
    >>> residency("h200", 128, 96, 48 * 1024)       # 64x64x64, 3 stages, 4 warps
    4
    """
    return min(residency_limits(g, threads, regs_per_thread, smem_bytes).values())
