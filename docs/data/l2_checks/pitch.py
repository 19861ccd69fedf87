"""Why ragged shapes reach the L2 with more lookups, and what they cost (session 21, issue 10).

One ragged problem of the fit half (3000x5000x4000 fp16, the order-table kernel) with its
operands' rows at different pitches: as the sweep has them (A 8000 bytes a row, B 10000: B's
rows alternate between starting on a 32-byte sector and 16 bytes past one), padded to
128-byte rows, and pitches in between; beside it the aligned 3072x5120x4096 and ragged edges
with aligned rows. One launch each under ncu (``--clock-control none``).

    python3 docs/data/l2_checks/pitch.py --out DIR      # on the GPU: profile, write pitch.json
    python3 docs/data/l2_checks/pitch.py --table pitch.json   # the table from the saved rows

What it showed on the H200 (pitch.txt): rows off the 32-byte sector, and nothing else, add
lookups: 1.22x the sectors read against 0.84x with the rows padded (64x128x64, row order),
and 1.14x against 0.76x (128x256x64); the requests carry 2.3 sectors each instead of 4. The
near misses stay within 6% of the padded rows' (24% fewer in 128x256x64), so the extra lookups
are hits. DRAM bytes: within 2% in three of the four pairs, 17% more in the fourth. Rows on
the sector but off the 128-byte line add little (0.90x), and ragged edges with aligned rows
nothing (0.85-0.87x against 0.87x aligned).
"""
import sys

#: name, M, N, K, A's row pitch and B's (elements), tile config, order
VARIANTS = [
    ("ragged", 3000, 5000, 4000, 4000, 5000, "64x128x64", "row"),
    ("ragged-col", 3000, 5000, 4000, 4000, 5000, "64x128x64", "col"),
    ("padded128", 3000, 5000, 4000, 4096, 5120, "64x128x64", "row"),
    ("padded128-col", 3000, 5000, 4000, 4096, 5120, "64x128x64", "col"),
    ("Bpitch32", 3000, 5000, 4000, 4000, 5008, "64x128x64", "row"),   # B 10016 bytes: %128 = 32
    ("Bpitch64", 3000, 5000, 4000, 4000, 5024, "64x128x64", "row"),   # 10048 bytes: %128 = 64
    ("Apitch16", 3000, 5000, 4000, 4008, 5120, "64x128x64", "row"),   # A 8016 bytes: %32 = 16
    ("aligned", 3072, 5120, 4096, 4096, 5120, "64x128x64", "row"),
    ("aligned-col", 3072, 5120, 4096, 4096, 5120, "64x128x64", "col"),
    ("ragged-256", 3000, 5000, 4000, 4000, 5000, "128x256x64", "row"),
    ("padded-256", 3000, 5000, 4000, 4096, 5120, "128x256x64", "row"),
    ("aligned-256", 3072, 5120, 4096, 4096, 5120, "128x256x64", "row"),
    ("edgeK-only", 3072, 5120, 4000, 4096, 5120, "64x128x64", "row"),
    ("edgeMN-only", 3000, 5000, 4096, 4096, 5120, "64x128x64", "row"),
]
METRICS = ["lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "lts__t_sectors.sum",
           "lts__t_sectors_srcunit_tex_op_read.sum",
           "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
           "lts__t_requests_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_ltcfabric.sum",
           "lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum"]


def launch_all():
    """The child ncu profiles: each variant once, checked against float64, output poisoned."""
    import torch

    from swizzlekit.cta import order
    from swizzlekit.kernels.triton.table_gemm import table_gemm, tile_config

    for name, M, N, K, pa, pb, config, o in VARIANTS:
        c = tile_config(config)
        torch.manual_seed(0)
        a = torch.randn(M, pa, device="cuda", dtype=torch.float16)[:, :K]
        b = torch.randn(K, pb, device="cuda", dtype=torch.float16)[:, :N]
        out = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        table_gemm(a, b, order(o, -(-M // c.bm), -(-N // c.bn)), out=out, config=config)
        ref = a.double() @ b.double()
        err = ((out.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (name, err)


def table(rows: list[dict]) -> str:
    lines = []
    for (name, M, N, K, pa, pb, config, _), r in zip(VARIANTS, rows):
        bm, bn, bk = map(int, config.split("x"))
        tm, tn, tk = -(-M // bm), -(-N // bn), -(-K // bk)
        sectors = tm * tn * tk * (bm * bk + bk * bn) * 2 / 32      # the model's near lookups
        tex = float(r["lts__t_sectors_srcunit_tex_op_read.sum"])
        hits = float(r["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"])
        req = float(r["lts__t_requests_srcunit_tex_op_read.sum"])
        lines.append(
            f"{name:14s} {M}x{N}x{K} rows {pa * 2:5d}/{pb * 2:5d} B {config:10s} "
            f"hit {float(r['lts__t_sector_hit_rate.pct']):5.1f}%  near lookups {tex / 1e6:7.2f}M "
            f"= {tex / sectors:5.3f} x sectors read, {tex / req:4.2f} a request; near misses "
            f"{(tex - hits) / 1e6:6.2f}M  DRAM {float(r['dram__bytes_read.sum']) / 1e6:6.1f} MB")
    return "\n".join(lines)


def keep(prof: list[dict]) -> list[dict]:
    return [{k: r[k] for k in ("Kernel Name", "Grid Size", *METRICS)} for r in prof]


if __name__ == "__main__":
    from _probe import main

    main(sys.argv[1:], script=__file__, metrics=METRICS, launch_all=launch_all, table=table,
         keep=keep, name="pitch.json")
