#!/bin/bash
# bash run2.sh OUT  (on one GPU): small.py with the hint and without it, then the H200 pitch
# probe (docs/data/bench/pitch_h200/probe.py).
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 150 python3 docs/data/bench/pointer_vec/small.py $OUT/small.jsonl > $OUT/small.txt 2>&1
timeout 150 python3 docs/data/bench/pointer_vec/small.py $OUT/small_nohint.jsonl nohint > $OUT/small_nohint.txt 2>&1
timeout 250 python3 docs/data/bench/pitch_h200/probe.py $OUT/pitch.jsonl > $OUT/pitch.txt 2>&1
tail -2 $OUT/small.txt
