#!/bin/bash
# The tail split probe on one GPU. Usage: bash run.sh OUT
set -u
OUT=$1; D=docs/data/bench/tail_split
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $OUT/gpu.txt
export PYTHONUNBUFFERED=1
timeout 300 python3 $D/diag.py > $OUT/diag.txt 2>&1; cat $OUT/diag.txt | tail -20

