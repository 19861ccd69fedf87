#!/usr/bin/env bash
# This folder's checks in one device call: the held-out sets of validate.py (``heldout`` and
# ``edge``) and the host time of the copies' repeat calls with and without the copier
# (host_ab.py), on whatever card runs it. Usage: bash docs/data/bench/ragged_small/run.sh OUT
set -uo pipefail
cd "$(dirname "$0")/../../../.."
out="${1:?usage: run.sh OUT}"
mkdir -p "$out"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
git rev-parse --short HEAD > "$out/commit.txt" 2>/dev/null || true
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
for set in ${SETS-heldout edge}; do      # SETS="" runs host_ab.py alone
  python3 docs/data/bench/ragged_small/validate.py "$out/$set.jsonl" "$set" 2>&1 | tee "$out/$set.log"
done
python3 docs/data/bench/ragged_small/host_ab.py 2>&1 | tee "$out/host_ab.txt"
