#!/bin/bash
# bash run.sh OUT  (on one GPU): the probe in both modes, then ncu on cuBLAS's calls.
set -u
OUT=$1; D=docs/data/bench/pitch_h100_2026-11-25
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
python3 $D/probe.py > $OUT/probe.txt 2>&1
python3 $D/probe.py nocopy > $OUT/probe_nocopy.txt 2>&1
ncu --clock-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__shared_mem_per_block_dynamic \
  python3 $D/ncu_cublas.py > $OUT/ncu_cublas.csv 2> $OUT/ncu_cublas.err
