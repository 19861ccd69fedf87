#!/bin/bash
# bf16 and fp16 over the full suite, then bf16 over ragged-pairs, on one GPU, with the code of
# the tree sent. Usage: bash docs/data/bench/run_16bit.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
export PYTHONUNBUFFERED=1
for p in bf16 fp16; do
  timeout 230 swizzlekit bench --suite full --precision $p --kernel triton --kernel triton_baseline --out $OUT/$p > $OUT/$p.log 2>&1
done
timeout 100 swizzlekit bench --suite ragged-pairs --precision bf16 --kernel triton --out $OUT/ragged > $OUT/ragged.log 2>&1
tail -n 3 $OUT/bf16.log $OUT/fp16.log $OUT/ragged.log  # the folders then go into one tarball
cd $OUT && tar czf runs.tgz bf16 fp16 ragged && rm -rf bf16 fp16 ragged
