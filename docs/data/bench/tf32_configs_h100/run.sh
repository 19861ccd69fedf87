#!/usr/bin/env bash
# bash docs/data/bench/tf32_configs_h100/run.sh OUT: the probe, then the GPU tier (no sanitizers)
set -uo pipefail
out="$1"; mkdir -p "$out"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
git rev-parse HEAD > "$out/commit.txt" 2>/dev/null
timeout 330 python3 docs/data/bench/tf32_configs_h100/probe.py "$out/probe.jsonl" 2>&1 | tee "$out/probe.txt" | tail -120
SANITIZE=0 TIER_LIMIT=240 bash .ci/gpu "$out/tier" > /dev/null 2>&1; tail -5 "$out/tier/gpu-tier.log"; cat "$out/tier/gpu.txt"
