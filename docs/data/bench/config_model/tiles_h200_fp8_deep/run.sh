#!/bin/bash
# On one H200: the table's fp8 rows with the deep fp8 pipelines (`lab tiles --precision fp8`),
# merged into data/tiles_h200.csv and refitted (tile_fit --gpu h200 --fit), then the full
# suite in fp8 on the refitted model. Usage: bash run.sh OUT
set -u
OUT=$1; D=docs/data/bench/config_model/tiles_h200_fp8_deep
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $OUT/gpu.txt
export PYTHONUNBUFFERED=1
timeout 300 swizzlekit lab tiles --out $OUT/tiles --precision fp8 > $OUT/tiles.log 2>&1
python3 $D/merge.py $OUT/tiles/tiles.csv src/swizzlekit/data/tiles_h200.csv > $OUT/fit.txt 2>&1 &&
python3 -m swizzlekit.lab.tile_fit --gpu h200 --fit >> $OUT/fit.txt 2>&1 &&
cp src/swizzlekit/data/tiles_h200.csv src/swizzlekit/data/tiles_model.json $OUT/
timeout 250 swizzlekit bench --suite full --precision fp8 --kernel triton --kernel triton_baseline --out $OUT/fp8 > $OUT/fp8.log 2>&1
cd $OUT && tar czf runs.tgz tiles fp8 && rm -rf tiles fp8
