#!/bin/bash
# The ragged-pairs suite in bf16 with the tree sent and with the code before its copies for
# TMA (old_src.tgz: `git archive 18713a5 src | gzip`, at the repository root), in one call on
# one GPU, after the GPU tests of the routes those copies take. Usage: bash run.sh OUT [PREC]
set -u
OUT=$1
PREC=${2:-bf16}
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
export PYTHONUNBUFFERED=1
timeout 150 python3 -m pytest -q -x -p no:cacheprovider tests/gpu/test_matmul_gpu.py \
  -k "ragged or masked or route or repeat or unaligned or tma_plans or transposes" > $OUT/gpu_tests.log 2>&1
tail -n 2 $OUT/gpu_tests.log
mkdir -p /tmp/old && tar xzf old_src.tgz -C /tmp/old
bench() {  # $1: name, then PYTHONPATH
  PYTHONPATH=$2 timeout 110 python3 -c "import sys; from swizzlekit.cli import main; sys.exit(main(sys.argv[1:]))" \
    bench --suite ragged-pairs --precision $PREC --kernel triton --out $OUT/$1 > $OUT/$1.log 2>&1
  PYTHONPATH=$2 python3 -c "
import json, sys
from swizzlekit.lab.bench import ragged_pair_ratios
rows = json.load(open('$OUT/$1/results.json'))
rows = rows['rows'] if isinstance(rows, dict) else rows
for r in ragged_pair_ratios(rows): print(r)" > $OUT/$1_pairs.txt 2>&1
}
bench new ""
bench old /tmp/old/src
bench new2 ""
for r in new old new2; do echo "== $r"; tail -n 2 $OUT/$r.log; cat $OUT/${r}_pairs.txt; done
cd $OUT && tar czf runs.tgz new old new2 *_pairs.txt && rm -rf new old new2 *_pairs.txt
