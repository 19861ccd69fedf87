#!/bin/bash
# bash run3.sh OUT  (on one GPU): small.py (default, pointer loads and TMA at each shape) with
# the hint, then the GPU tier without the sanitizers.
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt 2>/dev/null
timeout 200 python3 docs/data/bench/pointer_vec/small.py $OUT/small.jsonl > $OUT/small.txt 2>&1
SANITIZE=0 TIER_LIMIT=330 bash .ci/gpu $OUT/tier > /dev/null 2>&1
tail -1 $OUT/tier/gpu-tier.log; tail -1 $OUT/tier/gpu.txt
