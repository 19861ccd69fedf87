# usage: bash .probe/tiles16.sh NAME TIMEOUT PRECISION...  (lab tiles; resumable while warm)
export PYTHONPATH=$PWD/src TRITON_CACHE_DIR=/tmp/tc PYTHONUNBUFFERED=1
name=$1; lim=$2; shift 2
[ -d /tmp/$name ] || cp -r .probe/${name}_seed /tmp/$name; mkdir -p /tmp/$name
args=""; for p in "$@"; do args="$args --precision $p"; done
{ date -u; nvidia-smi --query-gpu=name,driver_version,uuid,clocks.sm,clocks.max.sm --format=csv,noheader;
  python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"; } >> /tmp/$name/log.txt 2>&1
start=$(date +%s)
timeout $lim python3 -m swizzlekit.cli lab tiles --out /tmp/$name $args >> /tmp/$name/log.txt 2>&1
echo "exit $? after $(( $(date +%s) - start )) s" >> /tmp/$name/log.txt
date -u >> /tmp/$name/log.txt
tail -4 /tmp/$name/log.txt; wc -l /tmp/$name/tiles.csv
tar czf $OUT/$name.tgz -C /tmp $name
