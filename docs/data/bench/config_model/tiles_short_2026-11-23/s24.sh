# session 24: GPU tests of gpu_time, lab tiles again for the problems under 40 us (seeded), alone probe
export PYTHONPATH=$PWD/src TRITON_CACHE_DIR=/tmp/tc PYTHONUNBUFFERED=1
D=/tmp/short; [ -d $D ] || { mkdir -p $D; cp .probe/short_seed/tiles.csv $D/; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,uuid,clocks.sm,clocks.max.sm --format=csv,noheader;
  python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"; } >> $D/log.txt 2>&1
if [ ! -f $D/gpu_tests.log ]; then
  timeout 120 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_timing_gpu.py tests/gpu/test_lab_tiles_gpu.py > $D/gpu_tests.log 2>&1; echo "gpu tests rc $?"; tail -2 $D/gpu_tests.log
fi
s=$(date +%s)
timeout ${1:-430} python3 -m swizzlekit.cli lab tiles --out $D --precision bf16 --precision fp16 --precision tf32 --precision fp8 >> $D/log.txt 2>&1
echo "exit $? after $(( $(date +%s) - s )) s" >> $D/log.txt; date -u >> $D/log.txt
tail -3 $D/log.txt; wc -l $D/tiles.csv
if [ -n "$2" ]; then timeout 100 python3 .probe/alone.py > $D/alone_after.jsonl 2>&1; echo "alone rc $?"; fi
tar czf $OUT/short.tgz -C /tmp short
