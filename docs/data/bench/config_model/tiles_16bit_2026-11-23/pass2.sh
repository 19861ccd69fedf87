export PYTHONPATH=$PWD/src TRITON_CACHE_DIR=/tmp/tc PYTHONUNBUFFERED=1
L=/tmp/s23log.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version,uuid,clocks.sm,clocks.max.sm --format=csv,noheader;
  python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"; } >> $L 2>&1
[ -d /tmp/tiles16b ] || cp -r .probe/tiles16b_seed /tmp/tiles16b
s=$(date +%s)
timeout ${T1:-380} python3 -m swizzlekit.cli lab tiles --out /tmp/tiles16b --precision bf16 --precision fp16 >> $L 2>&1
rc=$?; echo "tiles exit $rc after $(( $(date +%s) - s )) s" >> $L
if [ $rc = 0 ]; then
  python3 .probe/merge16.py /tmp/tiles16b/tiles.csv >> $L 2>&1
  python3 -m swizzlekit.lab.tile_fit --fit >> $L 2>&1
  s=$(date +%s)
  mkdir -p /tmp/decode23; date -u >> /tmp/decode23/log.txt
  timeout ${T2:-170} python3 -m swizzlekit.cli bench --suite decode --precision bf16 --precision fp16 --kernel triton --kernel triton_baseline --out /tmp/decode23 >> /tmp/decode23/log.txt 2>&1
  echo "bench exit $? after $(( $(date +%s) - s )) s" >> $L
  cp src/swizzlekit/data/tiles_h200.csv src/swizzlekit/data/tiles_model.json /tmp/decode23/
fi
s=$(date +%s)
timeout ${T3:-50} python3 -m pytest -q -p no:cacheprovider tests/gpu/test_lab_tiles_gpu.py >> $L 2>&1
echo "gpu test exit $? after $(( $(date +%s) - s )) s" >> $L
date -u >> $L; tail -25 $L
cp $L /tmp/tiles16b/
tar czf $OUT/s23.tgz -C /tmp tiles16b decode23 2>/dev/null || tar czf $OUT/s23.tgz -C /tmp tiles16b
