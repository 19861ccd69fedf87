#!/bin/bash
# fp16 over the full suite, then the GPU tier, on one GPU. Usage: bash run_fp16_tier.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
export PYTHONUNBUFFERED=1
timeout 270 swizzlekit bench --suite full --precision fp16 --kernel triton --kernel triton_baseline --out $OUT/fp16 > $OUT/fp16.log 2>&1
mkdir -p $OUT/tier
SANITIZE=0 TIER_LIMIT=280 bash .ci/gpu $OUT/tier > $OUT/tier/console.txt 2>&1
cd $OUT && tar czf runs.tgz fp16 && rm -rf fp16
