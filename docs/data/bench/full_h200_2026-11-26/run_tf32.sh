#!/bin/bash
# TF32 over the full suite and bf16 over ragged-pairs on one GPU. Usage: bash run_tf32.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu_tf32.txt
export PYTHONUNBUFFERED=1
timeout 270 swizzlekit bench --suite full --precision tf32 --kernel triton --out $OUT/tf32 > $OUT/tf32.log 2>&1
# ragged-pairs ran in an earlier call:
# timeout 200 swizzlekit bench --suite ragged-pairs --precision bf16 --kernel triton --out $OUT/ragged > $OUT/ragged.log 2>&1
cd $OUT && tar czf runs_tf32.tgz tf32 && rm -rf tf32
