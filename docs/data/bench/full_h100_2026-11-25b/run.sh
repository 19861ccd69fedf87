#!/bin/bash
# The full suite on an nvidia-h100-x2 machine, the precisions split over its two GPUs (one
# process each, cuBLAS timed in the same process as the kernels). Usage: bash run.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
export PYTHONUNBUFFERED=1
one() {   # GPU, folder, precisions...
  local g=$1 d=$2; shift 2
  local args=""
  for p in "$@"; do args="$args --precision $p"; done
  CUDA_VISIBLE_DEVICES=$g timeout 420 swizzlekit bench --suite full $args --kernel triton \
    --kernel triton_baseline --out $OUT/$d > $OUT/$d.log 2>&1
}
( one 0 a bf16 fp8 ) &
( one 1 b fp16 tf32 ) &
wait
cd $OUT && tar czf full.tgz a b && rm -rf a b
