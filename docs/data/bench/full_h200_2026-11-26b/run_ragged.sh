#!/bin/bash
# ragged.py twice, in fresh processes. Usage: bash run_ragged.sh OUT
set -u
OUT=$1; D=docs/data/bench/full_h200_2026-11-26b
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu_ragged.txt
for i in 1 2; do timeout 100 python3 $D/ragged.py > $OUT/ragged_$i.txt 2>&1; cat $OUT/ragged_$i.txt; done
