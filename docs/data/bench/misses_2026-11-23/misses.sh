export PYTHONPATH=$PWD/src TRITON_CACHE_DIR=/tmp/tc PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader; python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"; } > $OUT/env.txt 2>&1
timeout 110 python3 .probe/misses.py model > $OUT/model.jsonl 2> $OUT/model.err; echo "model rc $?"
timeout 130 python3 .probe/misses.py persistent > $OUT/persistent.jsonl 2> $OUT/persistent.err; echo "persistent rc $?"
SWIZZLEKIT_AUTOTUNE=full timeout 320 python3 .probe/misses.py full > $OUT/full.jsonl 2> $OUT/full.err; echo "full rc $?"
date -u >> $OUT/env.txt
python3 - <<'P'
import json, os
for m in ["model", "persistent", "full"]:
    for l in open(os.environ["OUT"] + f"/{m}.jsonl"):
        r = json.loads(l); o = min(r["ours_us"]); cb = min(r["cublas_us"])
        print(m, r["precision"], r["shape"], round(o, 1), round(cb, 1), round(cb / o, 3), f"{r['rel_err']:.1e}", r["plan"][:150])
P
tail -3 $OUT/*.err
