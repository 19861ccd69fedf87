#!/usr/bin/env bash
# bash docs/data/bench/tf32_copy/run.sh OUT: the default calls (calls.py), then the TF32 full suite, on one GPU with the tree sent
set -u
out="$1"; mkdir -p "$out"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > "$out/gpu.txt"
export PYTHONUNBUFFERED=1
timeout 200 python3 docs/data/bench/tf32_copy/calls.py "$out" 2>&1 | tee "$out/calls.txt"
timeout 250 swizzlekit bench --suite full --precision tf32 --kernel triton --out "$out/tf32" > "$out/tf32.log" 2>&1
tail -n 4 "$out/tf32.log"
cd "$out" && tar czf tf32.tgz tf32 && rm -rf tf32
