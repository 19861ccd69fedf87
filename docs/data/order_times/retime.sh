#!/bin/bash
# The order tables timed again on this GPU in the Williams turns of swizzlekit.turns, with
# more replicates, one shard a device call: 44 problems in the sweep (22 shapes x 2 configs),
# 16 in the fresh set. The H100's tables (src/swizzlekit/data/order_times_h100.csv, _fresh_)
# are three such passes pooled (docs/data/order_times/williams_h100_2026-11-27/), and so are
# the H200's (williams_h200_2026-11-27/, by h200_pass.sh).
# Usage: bash docs/data/order_times/retime.sh DIR SET SHARD [REPLICATES]; cp -r DIR $OUT/
#   DIR: a folder in the working tree (the device copies the tree, so a folder brought back
#   and put here again resumes: a later call skips what DIR/SET/order_times.csv holds);
#   SET: sweep or fresh; SHARD: I/N (whole shapes); REPLICATES: default 9. LIMIT=S stops
#   the timing after S seconds (default 560).
# A pass of both sets took about 430 s on an H100. Bring DIR back as one tar: a device call
# returns at most 8 files from $OUT. Then, without a GPU: the passes pooled into the tables
# in src/swizzlekit/data (python3 docs/data/order_times/pool.py DIR CARD), python -m
# swizzlekit.compare_time --fit and --heldout judge the time model on them.
set -u
DIR=$1
SET=$2
SHARD=$3
REPLICATES=${4:-9}
mkdir -p "$DIR/$SET"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,power.limit --format=csv > "$DIR/$SET/gpu.txt"
export PYTHONUNBUFFERED=1
timeout "${LIMIT:-560}" swizzlekit lab order-times --out "$DIR/$SET" --set "$SET" \
  --shard "$SHARD" --replicates "$REPLICATES" >> "$DIR/$SET/log.txt" 2>&1
echo "exit $? after $(grep -c fastest "$DIR/$SET/log.txt") problems"
