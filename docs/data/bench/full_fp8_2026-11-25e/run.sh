#!/bin/bash
# fp8 over the full suite on whichever card comes. Usage: bash run.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
export PYTHONUNBUFFERED=1
timeout 270 swizzlekit bench --suite full --precision fp8 --kernel triton --kernel triton_baseline --out $OUT/fp8 > $OUT/fp8.log 2>&1
cd $OUT && tar czf runs.tgz fp8 && rm -rf fp8
