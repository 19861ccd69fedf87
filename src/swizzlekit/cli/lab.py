"""``swizzlekit lab``: the measurements behind the models and the docs (list; or run one)."""

from __future__ import annotations

import argparse
from pathlib import Path

from swizzlekit.cli.common import Parser, emit, need_gpu, out_dir
from swizzlekit.lab.cluster import CLUSTER_HELP, check_cluster, open_cluster

__all__ = ["add", "run"]


def add(top) -> None:
    from swizzlekit.lab.experiments import EXPERIMENTS, SWEEPS

    lab = top.add_parser("lab", help="the lab's measurements on this GPU (list, or run one)")
    sub = lab.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    p = sub.add_parser("list", help="every experiment and what it measures")
    p.add_argument("--json", action="store_true")
    for name, (_, what) in EXPERIMENTS.items():
        p = sub.add_parser(name, help=what)
        p.add_argument("--out", type=Path, required=True, help="folder for its tables and logs")
        p.add_argument("--json", action="store_true")
        if name in ("l2-sweep", "order-times"):
            p.add_argument("--shard", default="0/1", metavar="I/N",
                           help="run shard I of N (whole shapes); default all")
            p.add_argument("--set", default="sweep", metavar="sweep|fresh|claims", dest="which",
                           help="the fit and held-out halves (default), the fresh shapes "
                                "judged once, or the set drawn to judge the claim rule")
        if name == "order-times":
            from swizzlekit.lab.experiments.order_times import REPLICATES
            from swizzlekit.lab.harness import MAX_REPLICATES

            p.add_argument("--replicates", default=REPLICATES, type=int, metavar="R",
                           help="replicates of every run, in the turns of a Williams design "
                                f"(1 to {MAX_REPLICATES}; default {REPLICATES})")
        if name == "tiles":
            p.add_argument("--precision", action="append", metavar="P",
                           help="bf16, fp16, tf32 or fp8 (repeat for several; default bf16, "
                                "tf32 and fp8)")
            p.add_argument("--set", default="table", metavar="table|narrow", dest="which",
                           help="the config model's table (fit, held-out and fresh shapes; "
                                "default), or the narrow set fixed to judge a lead")
        if name in SWEEPS:
            p.add_argument("--cluster", default="none", metavar="none|local|tcp://HOST:PORT",
                           help=CLUSTER_HELP)


def run(args: argparse.Namespace) -> int:
    from swizzlekit.lab.experiments import EXPERIMENTS, run as run_experiment

    if args.cmd == "list":
        emit({"experiments": {k: v[1] for k, v in EXPERIMENTS.items()}}, args.json,
             "\n".join(f"{k:12s} {v[1]}" for k, v in EXPERIMENTS.items()))
        return 0
    options = {}
    if args.cmd in ("l2-sweep", "order-times"):
        from swizzlekit.lab.experiments.l2_sweep import plan, shard

        shard(plan(args.which), args.shard)         # a bad --shard or --set: exit 2
        options["shard_spec"], options["which"] = args.shard, args.which
    if args.cmd == "order-times":
        from swizzlekit.errors import check_int
        from swizzlekit.lab.harness import MAX_REPLICATES

        options["replicates"] = check_int("replicates", args.replicates, 1, MAX_REPLICATES)
    if args.cmd == "tiles":                             # exit 2 before any GPU work
        from swizzlekit.errors import check_choice
        from swizzlekit.lab.experiments.tiles import PRECISIONS, SETS

        for p in args.precision or ():
            check_choice("precision", p, PRECISIONS)
        if args.precision:
            options["precisions"] = tuple(dict.fromkeys(args.precision))
        options["which"] = check_choice("set", args.which, SETS)
    out_dir(args.out)
    cluster = check_cluster(getattr(args, "cluster", "none"))
    if cluster == "none":
        need_gpu(f"lab {args.cmd}")
    with open_cluster(cluster) as client:
        if client is not None:
            options["client"] = client
        path = run_experiment(args.cmd, args.out, **options)
    emit({"experiment": args.cmd, "out": str(path)}, args.json, f"wrote {path}")
    return 0
