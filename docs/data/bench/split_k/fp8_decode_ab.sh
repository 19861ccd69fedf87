# A/B on one lease: fp8 decode suite + small squares, the commit before split-K changes (old) against now (new), alternating
export PYTHONUNBUFFERED=1
date -u > $OUT/env.txt
for pass in 1 2; do for code in old new; do
  if [ $code = old ]; then P=$PWD/.probe/old/src; else P=$PWD/src; fi
  S=$(date +%s)
  PYTHONPATH=$P TRITON_CACHE_DIR=/tmp/tc_$code timeout 140 python3 -m swizzlekit.cli bench --suite decode --precision fp8 --kernel triton --kernel triton_baseline --out /tmp/ab_${code}_$pass > $OUT/ab_${code}_$pass.log 2>&1
  echo "$code pass $pass rc=$? wall=$(( $(date +%s) - S ))" >> $OUT/env.txt
  cp /tmp/ab_${code}_$pass/results.csv $OUT/ab_${code}_$pass.csv
done; done
cat $OUT/env.txt
