#!/bin/bash
# The config model's fp8 rows on the H100 again, with the deep fp8 pipelines
# (configs.FP8_DEEP_TILES) in the lists: `swizzlekit lab tiles --precision fp8` on one GPU,
# then the fp8 GPU tests on the model's first picks. Usage: bash run.sh OUT
set -u
OUT=$1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $OUT/gpu.txt
export PYTHONUNBUFFERED=1
timeout 480 swizzlekit lab tiles --out $OUT/fp8 --precision fp8 > $OUT/fp8.log 2>&1
SWIZZLEKIT_AUTOTUNE=0 timeout 90 python3 -m pytest -q -x -m gpu tests/gpu/test_scaled_gpu.py -p no:cacheprovider > $OUT/scaled_gpu.log 2>&1
tail -2 $OUT/scaled_gpu.log
