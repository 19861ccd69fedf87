#!/bin/bash
# bash run_card.sh OUT  (on one GPU): the copy probe (docs/data/bench/pad_copy/probe.py), the
# pitch pay-off probe, then the GPU tier without the sanitizers.
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
mkdir -p $OUT/pad $OUT/pitch
timeout 150 python3 docs/data/bench/pad_copy/probe.py $OUT/pad/probe.jsonl > $OUT/pad/probe.txt 2>&1
timeout 200 python3 docs/data/bench/pitch_payoff/probe.py $OUT/pitch/pitch.jsonl > $OUT/pitch/pitch.txt 2>&1
SANITIZE=0 TIER_LIMIT=300 bash .ci/gpu $OUT/tier > /dev/null 2>&1
cat $OUT/gpu.txt; tail -1 $OUT/tier/gpu.txt
