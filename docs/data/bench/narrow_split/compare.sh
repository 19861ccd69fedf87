# split K before (HEAD) and after (working tree) the workspace in blocks, on one machine in
# one call: docs/data/bench/narrow_split/blocks_h100/ (old.*, new.*, regs_new.jsonl).
#     bash docs/data/bench/narrow_split/compare.sh      (on a GPU, OUT set)
# (as run: the old files were carried in the tree as copies of ec7a39c's)

python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
S="4864x256x15936 6912x256x3200 3000x256x8192 2048x384x14336 64x4096x4096 128x8192x8192 256x14336x4096"
cp src/swizzlekit/kernels/triton/split_k.py /tmp/new_split_k.py
cp src/swizzlekit/kernels/triton/splits.py /tmp/new_splits.py
git show HEAD:src/swizzlekit/kernels/triton/split_k.py > src/swizzlekit/kernels/triton/split_k.py
git show HEAD:src/swizzlekit/kernels/triton/splits.py > src/swizzlekit/kernels/triton/splits.py
python3 docs/data/bench/narrow_split/probe.py $OUT/old.jsonl $S 2>&1 | grep -v Warn > $OUT/old.txt
cp /tmp/new_split_k.py src/swizzlekit/kernels/triton/split_k.py
cp /tmp/new_splits.py src/swizzlekit/kernels/triton/splits.py
python3 docs/data/bench/narrow_split/probe.py $OUT/new.jsonl $S 2>&1 | grep -v Warn > $OUT/new.txt
python3 docs/data/bench/narrow_split/regs.py $OUT/regs_new.jsonl 4864x256x15936 64x4096x4096 > /dev/null 2>&1
python3 -c "
import json
for l in open('$OUT/regs_new.jsonl'):
    r=json.loads(l)
    if r['SPLIT_K']>1 or r['n_spills']: print(r['BLOCK_M'],r['BLOCK_N'],r['BLOCK_K'],r['num_stages'],r['num_warps'],'split',r['SPLIT_K'],'regs',r['n_regs'],'spills',r['n_spills'])
" | sort | uniq -c
cut -c1-330 $OUT/old.txt; echo ---; cut -c1-330 $OUT/new.txt
