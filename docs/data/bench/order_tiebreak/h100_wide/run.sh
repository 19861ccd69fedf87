#!/bin/bash
# How docs/data/bench/order_tiebreak/h100_wide/ was made: probe.py at two shapes (8192x28672x8192,
# 8192^3), bf16 by TMA, bf16 by pointer loads and fp8, on one GPU (run from the repository root
# with OUT set; the device returned OUT/r/).
R=$OUT/r; mkdir -p $R
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $R/gpu.txt
for p in bf16 bf16-pointer fp8; do
python3 - $R/lib_$p.jsonl 200 $p > $R/lib_$p.txt 2>&1 <<'PY'
import sys
src = open('docs/data/bench/order_tiebreak/probe.py').read()
src = src.replace("SHAPES = [(4096, 4096, 4096)", "SHAPES = [(8192, 28672, 8192), (8192, 8192, 8192)]\n_ALL = [(4096, 4096, 4096)")
sys.argv = ["probe.py"] + sys.argv[1:]
exec(compile(src, "probe.py", "exec"), {"__name__": "__main__"})
PY
tail -n 3 $R/lib_$p.txt
done
tar czf $OUT/out.tgz -C $OUT r
