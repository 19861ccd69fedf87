#!/bin/bash
# bf16 and fp16 over the full suite, then bf16 over ragged-pairs, on one GPU, with the code of
# the tree sent. Usage: bash docs/data/bench/run_16bit.sh OUT [PART ...]
# PART: bf16, fp16 or ragged (default: all three). On a fresh machine the three took 530 s
# (2026-11-26, H100) and bf16 ran past its limit, so a device call of 600 s may take one or
# two parts and the next call the rest; ragged took more than 120 s on a cold H100 (2026-11-27).
set -u
OUT=$1
shift
PARTS=${*:-bf16 fp16 ragged}
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
export PYTHONUNBUFFERED=1
for part in $PARTS; do
  case $part in
    bf16|fp16) timeout 290 swizzlekit bench --suite full --precision $part --kernel triton \
                 --kernel triton_baseline --out $OUT/$part > $OUT/$part.log 2>&1 ;;
    ragged) timeout 200 swizzlekit bench --suite ragged-pairs --precision bf16 --kernel triton \
              --out $OUT/ragged > $OUT/ragged.log 2>&1 ;;
    *) echo "unknown part $part; choose from: bf16 fp16 ragged" >&2; exit 2 ;;
  esac
  tail -n 3 $OUT/$part.log
done
cd $OUT && tar czf runs.tgz $PARTS && rm -rf $PARTS   # the folders go into one tarball
