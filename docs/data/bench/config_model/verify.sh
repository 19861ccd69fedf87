#!/bin/bash
# the config model against full autotuning: the full suite in bf16, each from a fresh Triton
# cache (so compile and autotune count in the wall time), then the forced-config GPU tests
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
for mode in model full; do
  export TRITON_CACHE_DIR=/tmp/tc_$mode
  start=$(date +%s.%N)
  SWIZZLEKIT_AUTOTUNE=$mode timeout 200 python3 -m swizzlekit.cli bench --suite full --precision bf16 --kernel triton --out $OUT/bench_bf16_$mode > $OUT/bench_bf16_$mode.log 2>&1
  echo "$mode rc=$? wall=$(echo "$(date +%s.%N) - $start" | bc)" | tee -a $OUT/walls.txt
done
export TRITON_CACHE_DIR=/tmp/tc_model
timeout 150 python3 -m pytest -q -o addopts="" tests/gpu/test_matmul_gpu.py -k "alone" > $OUT/gpu_alone.log 2>&1; echo "alone rc=$?" | tee -a $OUT/walls.txt
tail -3 $OUT/gpu_alone.log
cd $OUT && tar czf verify.tgz bench_* *.log walls.txt env.txt && rm -rf bench_bf16_model bench_bf16_full
