#!/bin/bash
# bash run.sh OUT  (on one GPU): the probe with the hint, then without it (a second process).
set -u
OUT=$1; D=docs/data/bench/pointer_vec
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt 2>/dev/null
timeout 330 python3 $D/probe.py $OUT/probe.jsonl > $OUT/probe.txt 2>&1
timeout 200 python3 $D/probe.py $OUT/probe_nohint.jsonl nohint > $OUT/probe_nohint.txt 2>&1
tail -3 $OUT/probe.txt
