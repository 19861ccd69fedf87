#!/bin/bash
# bash run_vec.sh OUT  (on one GPU): the probe in both modes on the 16-byte copy (pad._vec),
# then the fp8 deep-pipeline probe (docs/data/bench/fp8_deep_h100/probe.py).
set -u
OUT=$1; D=docs/data/bench/pitch_h100_2026-11-25
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
python3 $D/probe.py > $OUT/probe.txt 2>&1
python3 $D/probe.py nocopy > $OUT/probe_nocopy.txt 2>&1
timeout 300 python3 docs/data/bench/fp8_deep_h100/probe.py $OUT/fp8_deep.jsonl > $OUT/fp8_deep.txt 2>&1
