"""Measure shared-memory wavefronts on the GPU, one warp instruction at a time.

This is the script behind ``src/swizzlekit/data/smem_wavefronts_h200.csv``, the table that the bank
model (:func:`swizzlekit.smem.wavefronts`) must reproduce row for row. It

1. writes a few hundred address patterns (strides, tile rows/columns/blocks, swizzled tiles,
   broadcasts, lanes sharing addresses in pairs and quads, inactive lanes, random),
2. compiles ``banks.cu`` with NVRTC for the local GPU (the one CUDA path of swizzlekit),
3. runs every pattern once under Nsight Compute, one launch per pattern (in jobs of
   :data:`CHUNK` patterns, which ``--cluster`` spreads over GPUs), and
4. writes the table: pattern, op, width, measured wavefronts, bank conflicts and the
   number of shared-memory instructions (always 1, or 0 when every lane is inactive).

Run on a GPU machine: ``swizzlekit lab banks --out DIR``. Generating the
patterns needs only numpy:

>>> pats = patterns()
>>> len(pats) >= 300, sorted({p.width for p in pats}), sorted({p.op for p in pats})[:2]
(True, [4, 8, 16], ['ld', 'ldmatrix.x1'])
>>> all(a is None or a % p.width == 0 for p in pats for a in p.addresses)
True
"""

from __future__ import annotations

import csv
import json
import platform
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["Pattern", "patterns", "write_table", "read_table", "METRICS", "kernel_name",
           "launch_patterns", "measure", "run", "CHUNK"]

LANES = 32
SMEM_BYTES = 48 * 1024
METRICS = (
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "smsp__sass_inst_executed_op_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
)


@dataclass(frozen=True)
class Pattern:
    """One warp instruction: its name, ``op``, access width and 32 lane addresses.

    ``op`` is "ld", "st", or "ldmatrix.xN" / "stmatrix.xN" (width 16: one row per lane).
    """

    name: str
    op: str
    width: int
    addresses: tuple[int | None, ...]

    def line(self) -> str:
        return " ".join([self.op, str(self.width)] +
                        [str(-1 if a is None else a) for a in self.addresses])


def _swizzle128(addr: int) -> int:
    # CuTe Swizzle<3,4,3> on byte addresses (the 128-byte TMA swizzle):
    # 0bxxxxxxxYYYxZZZxxxx  ->  ZZZ ^= YYY   (bits 7..9 into bits 4..6)
    return addr ^ (((addr >> 7) & 7) << 4)


def _family(width: int, rng: np.random.Generator) -> list[tuple[str, list[int | None]]]:
    """Address patterns for one access width (bytes), all aligned to ``width``."""
    lanes = np.arange(LANES)
    out: list[tuple[str, list[int | None]]] = []

    def add(name: str, addrs) -> None:
        out.append((name, [None if a is None else int(a) for a in addrs]))

    # Strides, in elements of the access width and in bytes around the 128-byte bank period.
    for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 32, 33):
        add(f"stride_{k}x{width}B", lanes * k * width)
    for s in (128, 256, 384, 128 + width, 128 + 2 * width, 64 + width):
        add(f"stride_{s}B", lanes * s)
    # Broadcasts and lanes sharing addresses.
    add("broadcast_0", [0] * LANES)
    add("broadcast_64", [64] * LANES)
    for g in (2, 4, 8, 16):
        add(f"share_{g}_contiguous", (lanes // g) * width)
        add(f"share_{g}_stride128", (lanes // g) * 128)
    for m in (4, 8, 16):
        add(f"mod_{m}", (lanes % m) * width)
    # Lane permutations of a contiguous run.
    add("xor1", (lanes ^ 1) * width)
    add("xor2", (lanes ^ 2) * width)
    add("xor8", (lanes ^ 8) * width)
    add("reversed", (LANES - 1 - lanes) * width)
    add("permuted", rng.permutation(LANES) * width)
    add("pairs_swap_and_share", (lanes // 2 ^ 1) * width)
    # Inactive lanes.
    none = [None] * LANES
    add("inactive_all", none)
    add("lane0_only", [0] + none[1:])
    add("first8", [a if a < 8 * width else None for a in lanes * width])
    add("first16", [a if a < 16 * width else None for a in lanes * width])
    add("odd_lanes", [int(l) * width if l % 2 else None for l in lanes])
    add("every4th", [int(l) * width if l % 4 == 0 else None for l in lanes])
    add("odd_lanes_stride128", [int(l) * 128 if l % 2 else None for l in lanes])
    for i in range(3):
        mask = rng.random(LANES) < 0.5
        add(f"random_mask{i}", [int(l) * width if m else None for l, m in zip(lanes, mask)])
        add(f"random_mask{i}_stride136",
            [int(l) * (128 + width) if m else None for l, m in zip(lanes, mask)])
    # Tile rows, columns and r x c blocks of width-sized elements, plain and swizzled.
    for pitch in (128, 256, 512):
        for r in (1, 2, 4, 8, 16, 32):
            c = LANES // r
            if c * width > pitch:
                continue
            plain = (lanes // c) * pitch + (lanes % c) * width
            add(f"block_{r}x{c}_pitch{pitch}", plain)
            add(f"block_{r}x{c}_pitch{pitch}_sw128", [_swizzle128(int(a)) for a in plain])
    # Transposed-block lane order (column-major lanes inside the block), as ldmatrix.trans reads.
    for r, c in ((8, 4), (4, 8)):
        addrs = (lanes % r) * 128 + (lanes // r) * width
        add(f"block_{r}x{c}_colmajor_lanes", addrs)
        add(f"block_{r}x{c}_colmajor_lanes_sw128", [_swizzle128(int(a)) for a in addrs])
    # Random addresses: sparse, dense (many shared words), and with inactive lanes.
    for span in (256, 1024, 8192):
        for i in range(4):
            add(f"random_{span}B_{i}", rng.integers(0, span // width, LANES) * width)
    for i in range(3):
        addrs = rng.integers(0, 2048 // width, LANES) * width
        mask = rng.random(LANES) < 0.7
        add(f"random_masked_{i}", [int(a) if m else None for a, m in zip(addrs, mask)])
    out += _probes(width, rng)
    return out


def _probes(width: int, rng: np.random.Generator) -> list[tuple[str, list[int | None]]]:
    """Patterns that tell apart candidate rules for merging phases (added after a first run).

    Which lane pairs (i, i^x) sharing an address let a 64- or 128-bit load merge its phases;
    whether the condition is judged per half-warp or warp-wide; whether a merged group's
    conflicts add up or are counted over the union.
    """
    lanes = np.arange(LANES)
    out: list[tuple[str, list[int | None]]] = []

    def add(name: str, addrs) -> None:
        out.append((name, [None if a is None else int(a) for a in addrs]))

    for x in (1, 2, 4, 8, 16):
        add(f"probe_share_xor{x}", (lanes & ~x) * width)
        add(f"probe_share_xor{x}_half0_only",
            [int(l & ~x) * width if l < 16 else int(l) * width for l in lanes])
        add(f"probe_share_xor{x}_half1_only",
            [int(l & ~x) * width if l >= 16 else int(l) * width for l in lanes])
        add(f"probe_share_xor{x}_stride128", (lanes & ~x) * 128)
    add("probe_share_xor1_quarter0_only", [int(l & ~1) * width if l < 8 else int(l) * width
                                          for l in lanes])
    add("probe_share_xor3", (lanes & ~3) * width)
    add("probe_share_xor1_and_xor2_mixed",
        [int(l & ~1) * width if l % 4 < 2 else int(l & ~2) * width for l in lanes])
    add("probe_odd_lanes_packed", [int(l // 2) * width if l % 2 else None for l in lanes])
    add("probe_even_lanes_packed", [int(l // 2) * width if l % 2 == 0 else None for l in lanes])
    add("probe_lanes_mod4_0_packed", [int(l // 4) * width if l % 4 == 0 else None for l in lanes])
    # Pairs share; each half (or quarter) conflicts within itself but not with the other.
    add("probe_pairs_conflict_split_halves",
        [int((l % 16) // 2) * 128 + (l // 16) * 64 for l in lanes])
    add("probe_pairs_conflict_split_quarters",
        [int((l % 8) // 2) * 128 + (l // 8) * 32 for l in lanes])
    add("probe_pairs_conflict_same_bank",
        [int((l % 16) // 2) * 128 + (l // 16) * 1024 for l in lanes])
    for i in range(3):
        keys = rng.integers(0, 1024 // width, LANES) * width
        add(f"probe_pairs_random_{i}", [int(keys[l & ~1]) for l in lanes])
        add(f"probe_xor2_random_{i}", [int(keys[l & ~2]) for l in lanes])
        add(f"probe_quads_random_{i}", [int(keys[l & ~3]) for l in lanes])
    return out


def _matrix_family(rng: np.random.Generator) -> list[tuple[str, int, list[int | None]]]:
    """Row addresses for ldmatrix/stmatrix: 8 rows of 16 bytes per matrix, x1/x2/x4."""
    out: list[tuple[str, int, list[int | None]]] = []
    for count in (1, 2, 4):
        rows = np.arange(8 * count)

        def add(name: str, addrs) -> None:
            full = [int(a) for a in addrs] + [None] * (LANES - 8 * count)
            out.append((name, count, full))

        for pitch in (16, 32, 64, 128, 144, 256, 80):
            add(f"rows_pitch{pitch}", rows * pitch)
        for pitch in (64, 128, 256):
            add(f"rows_pitch{pitch}_sw128", [_swizzle128(int(r) * pitch) for r in rows])
        # Matrices side by side in a 128-byte-wide tile (as an x4 of a 16x16 fp16 tile reads).
        # Lane l gives row (l % 8) + 8 * ((l // 8) % 2), 16-byte column l // 16.
        tile = (rows % 8 + 8 * ((rows // 8) % 2)) * 128 + (rows // 16) * 16
        add("tile16x16_pitch128", tile)
        add("tile16x16_pitch128_sw128", [_swizzle128(int(a)) for a in tile])
        add("rows_same", [64] * (8 * count))
        for i in range(3):
            add(f"rows_random_{i}", rng.integers(0, 4096 // 16, 8 * count) * 16)
    return out


def patterns(seed: int = 2026) -> list[Pattern]:
    """Every pattern, for loads and stores of 4, 8 and 16 bytes. Deterministic in ``seed``."""
    result: list[Pattern] = []
    for op in ("ld", "st"):
        for width in (4, 8, 16):
            rng = np.random.default_rng([seed, width])
            for name, addrs in _family(width, rng):
                assert all(a is None or (0 <= a < SMEM_BYTES and a % width == 0) for a in addrs)
                result.append(Pattern(name, op, width, tuple(addrs)))
    for op in ("ldmatrix", "stmatrix"):
        rng = np.random.default_rng([seed, 99])
        for name, count, addrs in _matrix_family(rng):
            result.append(Pattern(name, f"{op}.x{count}", 16, tuple(addrs)))
    return result


def write_table(path: Path, pats: list[Pattern], rows: list[dict]) -> None:
    """Join the patterns with ncu's rows (launch order) into the committed CSV table."""
    if len(rows) != len(pats):
        raise RuntimeError(f"ncu profiled {len(rows)} launches for {len(pats)} patterns")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "op", "width", "wavefronts", "bank_conflicts",
                    "instructions", "addresses", "gpu", "gpu_uuid"])
        for i, (p, row) in enumerate(zip(pats, rows)):
            # ldmatrix's wavefronts count under op_ld and stmatrix's under op_st. The all-op
            # wavefront total holds one more per launch (also with no shared instruction at
            # all), so it is not used. The all-op instruction count is the one that sees
            # LDSM/STSM: it must be 1 (0 when every lane is inactive).
            kind = "ld" if p.op.startswith("ld") else "st"
            wf = row[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{kind}.sum"]
            bc = row[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{kind}.sum"]
            ni = row["smsp__sass_inst_executed_op_shared.sum"]
            w.writerow([i, p.name, p.op, p.width, int(wf), int(bc), int(ni),
                        " ".join(str(-1 if a is None else a) for a in p.addresses),
                        row.get("gpu", ""), row.get("gpu_uuid", "")])


def read_table(path: Path) -> list[dict]:
    """Read the committed table back: addresses as a list with ``None`` for inactive lanes."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for key in ("id", "width", "wavefronts", "bank_conflicts", "instructions"):
            r[key] = int(r[key])
        r["addresses"] = [None if a == "-1" else int(a) for a in r["addresses"].split()]
    return rows


def _tool_version(cmd: list[str]) -> str:
    try:
        text = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unavailable"
    return text.strip().splitlines()[-1] if text.strip() else "unavailable"


def kernel_name(op: str, width: int) -> str:
    """The kernel in banks.cu for one op and access width.

    >>> kernel_name("ld", 16), kernel_name("stmatrix.x4", 16)
    ('ld_w16', 'stsm_x4')
    """
    if op.startswith(("ldmatrix", "stmatrix")):
        return ("ldsm_x" if op.startswith("ld") else "stsm_x") + op.rsplit("x", 1)[1]
    return f"{op}_w{width}"


def launch_patterns(pats: list[Pattern]) -> None:
    """Launch every pattern once, one warp each, in order (the child that ncu profiles)."""
    import torch

    from swizzlekit.kernels.cuda.launch import function, launch, ptr
    from swizzlekit.kernels.cuda.nvrtc import compile_cuda

    major, minor = torch.cuda.get_device_capability()
    names = sorted({kernel_name(p.op, p.width) for p in pats})
    compiled = compile_cuda(Path(__file__).with_name("banks.cu").read_text(), names,
                            arch=f"sm_{major}{minor}", filename="banks.cu")
    out = torch.empty(LANES, device="cuda")
    for p in pats:
        addr = torch.tensor([-1 if a is None else a for a in p.addresses], dtype=torch.int32,
                            device="cuda")
        launch(function(compiled, kernel_name(p.op, p.width), SMEM_BYTES), (1,), (LANES,),
               [ptr(addr), ptr(out)], SMEM_BYTES)
        torch.cuda.synchronize()


#: Patterns per job: each job is one ncu session over its share of the patterns.
CHUNK = 48


def measure(start: int, stop: int) -> list[dict]:
    """One job: patterns ``start:stop`` under ncu, one launch each; ncu's rows in order."""
    from swizzlekit.lab import ncu

    rows = ncu.profile([sys.executable, "-m", "swizzlekit.lab.experiments.banks", "--child",
                        str(start), str(stop)], METRICS, kernel_regex="^(ld|st)(_w|sm_x)")
    if len(rows) != stop - start:
        raise RuntimeError(f"ncu profiled {len(rows)} launches for {stop - start} patterns")
    return rows


def run(out: Path, client=None, progress: bool = True) -> Path:
    """Every pattern under ncu, in jobs of :data:`CHUNK` (here or on the workers of
    ``client``); finished jobs stream into ``chunks.jsonl``, which a later call resumes from.
    Writes ``smem_wavefronts.csv`` and ``.json`` to ``out``."""
    from swizzlekit.lab import ncu
    from swizzlekit.lab.cluster import Job, provenance_soon, run_jobs

    out.mkdir(parents=True, exist_ok=True)
    pats = patterns()
    log = out / "chunks.jsonl"
    done = {}
    if log.exists():
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            done[entry["start"]] = entry
    jobs = [Job(f"patterns {i}:{min(i + CHUNK, len(pats))}",
                "swizzlekit.lab.experiments.banks:measure",
                {"start": i, "stop": min(i + CHUNK, len(pats))})
            for i in range(0, len(pats), CHUNK) if i not in done]

    def keep(d) -> None:
        entry = {"start": d.job.args["start"], "gpu": d.gpu, "gpu_uuid": d.gpu_uuid,
                 "rows": d.result}
        if entry["start"] not in done:
            done[entry["start"]] = entry
            with open(log, "a") as f:
                f.write(json.dumps(entry) + "\n")

    env = provenance_soon(client)
    run_jobs(jobs, keep, client=client, progress=progress, label="pattern chunks",
             journal=out / "jobs.jsonl")
    rows = [{**r, "gpu": e["gpu"], "gpu_uuid": e["gpu_uuid"]}
            for _, e in sorted(done.items()) for r in e["rows"]]
    write_table(out / "smem_wavefronts.csv", pats, rows)
    meta = {**env.result(), "ncu": _tool_version([ncu.find_ncu(), "--version"]),
            "python": platform.python_version(), "command": "swizzlekit lab banks --out DIR",
            "patterns": len(pats)}
    (out / "smem_wavefronts.json").write_text(json.dumps(meta, indent=2) + "\n")
    return out / "smem_wavefronts.csv"


if __name__ == "__main__":          # the child process that Nsight Compute profiles
    if sys.argv[1] == "--child":
        launch_patterns(patterns()[int(sys.argv[2]):int(sys.argv[3])])
