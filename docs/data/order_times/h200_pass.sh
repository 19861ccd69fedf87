#!/bin/bash
# One Williams pass of the order tables (both sets) on an H200, or nothing on another card
# (a call asked as nvidia-h200 may land on an H100; the H100's tables are done).
# Usage, on the device: bash docs/data/order_times/h200_pass.sh DIR; DIR/ comes back as
# $OUT/pass.tgz (a call returns at most 8 files). The H200's tables are three such passes,
# pooled by docs/data/order_times/pool.py (docs/data/order_times/williams_h200_2026-11-27/).
# SWEEP_LIMIT and FRESH_LIMIT (seconds, default 400 and 150) bound each set; a DIR brought
# back and put here again resumes (retime.sh skips what DIR/SET/order_times.csv holds).
set -u
DIR=$1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "not an H200: nothing timed"
  exit 0
fi
mkdir -p "$DIR"
LIMIT=${SWEEP_LIMIT:-400} bash docs/data/order_times/retime.sh "$DIR" sweep 0/1 9
LIMIT=${FRESH_LIMIT:-150} bash docs/data/order_times/retime.sh "$DIR" fresh 0/1 9
tar czf "$OUT/pass.tgz" "$DIR"
