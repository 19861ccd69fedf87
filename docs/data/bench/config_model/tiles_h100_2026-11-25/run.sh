#!/bin/bash
# The config model's table on the H100: `swizzlekit lab tiles`, the precisions split over
# the two GPUs of an nvidia-h100-x2 machine (one process each, no Dask), rows streamed to
# each folder's tiles.csv; merged afterwards by merge.py. Usage: bash run.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $OUT/gpu.txt
export PYTHONUNBUFFERED=1
CUDA_VISIBLE_DEVICES=0 timeout 540 swizzlekit lab tiles --out $OUT/a --precision bf16 --precision fp16 > $OUT/a.log 2>&1 &
CUDA_VISIBLE_DEVICES=1 timeout 540 swizzlekit lab tiles --out $OUT/b --precision tf32 --precision fp8 > $OUT/b.log 2>&1 &
wait
cd $OUT && tar czf tiles.tgz a b && rm -rf a b
