#!/bin/bash
# On one H100: the load-path probe, then fp8 over the full suite and the GPU tier on the
# current code. Usage: bash run.sh OUT
set -u
OUT=$1; D=docs/data/bench/tma_vs_pointer
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $OUT/gpu.txt
export PYTHONUNBUFFERED=1
timeout 150 python3 $D/probe.py $OUT/probe.jsonl > $OUT/probe.txt 2>&1
cat $OUT/probe.txt
timeout 240 swizzlekit bench --suite full --precision fp8 --kernel triton --kernel triton_baseline --out $OUT/fp8 > $OUT/fp8.log 2>&1
tail -n 2 $OUT/fp8.log
timeout 180 bash .ci/gpu $OUT/tier > $OUT/tier.log 2>&1; tail -n 3 $OUT/tier.log
cd $OUT && tar czf runs.tgz fp8 && rm -rf fp8
