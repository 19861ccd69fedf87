#!/bin/bash
# fp8 and bf16 over the full suite on one GPU, the H200's config model timing top_k = 5.
# Usage: bash run.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
export PYTHONUNBUFFERED=1
for p in fp8 bf16; do
  timeout 250 swizzlekit bench --suite full --precision $p --kernel triton --kernel triton_baseline --out $OUT/$p > $OUT/$p.log 2>&1
  tail -n 2 $OUT/$p.log
done
cd $OUT && tar czf runs.tgz fp8 bf16 && rm -rf fp8 bf16
