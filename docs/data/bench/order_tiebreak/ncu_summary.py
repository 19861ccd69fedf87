"""The table of ``ncu_h100/ncu_orders.csv`` (``ncu_orders.py`` under Nsight Compute): per
shape and order, the median over the call's launches of the kernel's time, DRAM bytes read,
L2 sectors read (``lts__t_sectors_op_read``, of which ``..._srcunit_ltcfabric`` came over the
partitions' fabric), L2 throughput and tensor-pipe activity, beside what the L2 model predicts
for the same launch (DRAM bytes, L2 lookups). No GPU needed.

    python3 docs/data/bench/order_tiebreak/ncu_summary.py
"""
import csv
import statistics
from pathlib import Path

from swizzlekit.cta.l2 import simulate
from swizzlekit.cta.orders import order

from probe import ORDERS          # the four orders the probe times

HERE = Path(__file__).parent
SHAPES = [(3000, 5000, 4000), (8192, 8192, 8192), (4096, 16384, 4096)]
METRICS = ("gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_sectors_op_read.sum",
           "lts__t_sectors_srcunit_ltcfabric.sum",
           "lts__throughput.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed")


def launches() -> list[dict]:
    lines = [x for x in (HERE / "ncu_h100" / "ncu_orders.csv").read_text().splitlines()
             if x.startswith('"')]
    out: dict[int, dict] = {}
    for r in csv.DictReader(lines):
        out.setdefault(int(r["ID"]), {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return [out[k] for k in sorted(out)]


def per_call(runs: list[dict]) -> int:
    """Launches a call: the calls ran in the order of SHAPES, then ORDERS."""
    return len(runs) // (len(SHAPES) * len(ORDERS))


def print_table(runs: list[dict]) -> None:
    per = per_call(runs)
    print(f"{len(runs)} launches, {per} a call; medians. time us | DRAM GB (model) | L2 sectors "
          f"M (fabric M; model lookups M) | L2 % | tensor %")
    i = 0
    for M, N, K in SHAPES:
        tm, tn = -(-M // 128), -(-N // 256)
        for name, (o, p) in ORDERS.items():
            group = runs[i * per:(i + 1) * per]
            i += 1
            med = {m: statistics.median(g[m] for g in group) for m in METRICS}
            s = simulate(M, N, K, order(o, tm, tn, **p), tile=(128, 256, 64), elem_bytes=2,
                         out_bytes=2, gpu="h100-sxm", ctas_per_sm=1)
            print(f"{M}x{N}x{K} {name:9s} {med[METRICS[0]] / 1e3:7.1f} | "
                  f"{med[METRICS[1]] / 1e9:5.2f} ({s.dram_read_bytes / 1e9:5.2f}) | "
                  f"{med[METRICS[2]] / 1e6:6.1f} ({med[METRICS[3]] / 1e6:5.1f}; "
                  f"{s.lookups / 1e6:6.1f}) | {med[METRICS[4]]:5.1f} | {med[METRICS[5]]:5.1f}")


def paired_sectors(M: int, N: int, K: int, name: str, pair: int = 2) -> float:
    """L2 sectors (millions) the launch reads if the CTAs of each run of ``pair`` consecutive
    CTAs of the order (those the dispatcher places side by side) merge their requests for the
    same A or B tile: per run, the distinct A row panels and B column panels times their
    bytes (bf16, 128x256 tiles)."""
    o, p = ORDERS[name]
    tiles = order(o, -(-M // 128), -(-N // 256), **p)
    total = 0
    for start in range(0, len(tiles), pair):
        run = tiles[start:start + pair]
        total += len({int(m) for m, _ in run}) * 128 * K * 2
        total += len({int(n) for _, n in run}) * 256 * K * 2
    return total / 32 / 1e6


def print_pairs(runs: list[dict]) -> None:
    per = per_call(runs)
    print("\nL2 sectors read, less the fabric's (M), against every CTA reading its own tiles "
          "and against consecutive pairs of CTAs merging their requests:")
    i = 0
    for M, N, K in SHAPES:
        for name in ORDERS:
            group = runs[i * per:(i + 1) * per]
            i += 1
            near = statistics.median(g[METRICS[2]] - g[METRICS[3]] for g in group) / 1e6
            print(f"{M}x{N}x{K} {name:9s} measured {near:6.1f}  alone "
                  f"{paired_sectors(M, N, K, name, 1):6.1f}  pairs "
                  f"{paired_sectors(M, N, K, name, 2):6.1f}")


if __name__ == "__main__":
    runs = launches()
    print_table(runs)
    print_pairs(runs)
