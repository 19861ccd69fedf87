#!/bin/bash
# bf16 and fp16 over the full suite on one GPU (the H200's refitted model). Usage: bash run.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
export PYTHONUNBUFFERED=1
for p in bf16 fp16; do
  timeout 270 swizzlekit bench --suite full --precision $p --kernel triton --kernel triton_baseline --out $OUT/$p > $OUT/$p.log 2>&1
done
cd $OUT && tar czf runs.tgz bf16 fp16 && rm -rf bf16 fp16
