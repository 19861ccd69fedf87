#!/bin/bash
# TF32 over the full suite on one GPU, with the code of the tree sent, into OUT/tf32.tgz
# (results, log, gpu.txt). Usage: bash docs/data/bench/run_tf32.sh OUT
set -u
OUT=$1
mkdir -p $OUT/tf32
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/tf32/gpu.txt
export PYTHONUNBUFFERED=1
timeout 250 swizzlekit bench --suite full --precision tf32 --kernel triton --out $OUT/tf32 > $OUT/tf32/tf32.log 2>&1
tail -n 3 $OUT/tf32/tf32.log
cd $OUT && tar czf tf32.tgz tf32 && rm -rf tf32
