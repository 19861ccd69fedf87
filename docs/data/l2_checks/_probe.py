"""The command line the ncu check scripts here share (pitch.py, unseen_ragged.py):

* ``--out DIR``: on the GPU, profile the script's own ``launch`` under ncu
  (``--clock-control none``), keep each launch's row, write them to ``DIR/NAME`` and print
  the table;
* ``--table FILE``: the table again from saved rows, without a GPU;
* ``launch``: the child that ncu profiles.
"""
import json
import subprocess
import sys
from pathlib import Path


def main(argv, *, script, metrics, launch_all, table, keep, name):
    if argv[:1] == ["launch"]:
        return launch_all()
    if argv[:1] == ["--table"] and len(argv) == 2:
        print(table(json.loads(Path(argv[1]).read_text())))
        return
    if argv[:1] != ["--out"] or len(argv) != 2:
        print(f"usage: python3 {Path(script).name} --out DIR | --table {name}", file=sys.stderr)
        sys.exit(2)
    from swizzlekit.lab import ncu

    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    prof = ncu.profile([sys.executable, script, "launch"], metrics,
                       kernel_regex="order_table_gemm", extra_args=("--print-units", "base"))
    rows = keep(prof)
    (out / name).write_text(json.dumps(rows, indent=1) + "\n")
    print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                          "--format=csv,noheader"], capture_output=True, text=True).stdout.strip())
    print(table(rows))
