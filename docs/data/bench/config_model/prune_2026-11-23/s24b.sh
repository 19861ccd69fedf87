export PYTHONPATH=$PWD/src TRITON_CACHE_DIR=/tmp/tc PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader; git log --oneline -1 2>/dev/null; } > $OUT/env.txt 2>&1
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_lab_tiles_gpu.py tests/gpu/test_timing_gpu.py > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc $?"; tail -2 $OUT/gpu_tests.log
timeout 120 python3 .probe/prune_gpu.py > $OUT/prune_gpu.jsonl 2> $OUT/prune_gpu.err; echo "prune rc $?"
python3 -c "
import json
for l in open('$OUT/prune_gpu.jsonl'):
    r=json.loads(l); print(r['shape'], r['kernel'], r['both_narrow'], r['same'], f\"{r['err']:.1e}\", len(r['plan_timed']))
"; tail -2 $OUT/prune_gpu.err; date -u >> $OUT/env.txt
