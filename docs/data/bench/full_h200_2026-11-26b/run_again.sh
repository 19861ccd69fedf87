#!/bin/bash
# bf16 over the full suite once more, as run.sh ran it, to see whether 1999x4097x3001 runs
# slow again inside the suite's process. Usage: bash run_again.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu_again.txt
export PYTHONUNBUFFERED=1
timeout 250 swizzlekit bench --suite full --precision bf16 --kernel triton --kernel triton_baseline --out $OUT/bf16_again > $OUT/bf16_again.log 2>&1
tail -n 2 $OUT/bf16_again.log; grep -E "1999x4097|777x4095" $OUT/bf16_again.log
cd $OUT && tar czf runs_again.tgz bf16_again && rm -rf bf16_again
