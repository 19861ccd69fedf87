#!/usr/bin/env bash
# bash docs/data/bench/tf32_copy/run_all.sh OUT: probe.py (the copy's tile, the swapped tile at
# growing M, copy against swapped), then run.sh (the default calls, the TF32 full suite)
set -u
out="$1"; mkdir -p "$out"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
export PYTHONUNBUFFERED=1
timeout 200 python3 docs/data/bench/tf32_copy/probe.py "$out" > "$out/probe.txt" 2>&1
grep -E "^(copy|rule)" "$out/probe.txt"
bash docs/data/bench/tf32_copy/run.sh "$out"
