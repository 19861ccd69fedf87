#!/bin/bash
# The pitched copy's pay-off on one GPU, both modes. Usage: bash run.sh OUT
set -u
OUT=$1; D=docs/data/bench/pitch_h200
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
for m in copy nocopy; do timeout 130 python3 $D/probe.py $m > $OUT/$m.txt 2>&1; cat $OUT/$m.txt; done
