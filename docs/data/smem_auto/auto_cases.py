"""`auto` instruction choice over 270 problems (tiles 8x128 to 256x256, 1-, 2- and 4-byte
elements, no access / col / row+col, and three instruction requests): each answer's
wavefronts, storage and instructions, and its time on one core of this 2-core machine.

    python3 docs/data/smem_auto/auto_cases.py OUT.json

auto_full_searches.json: every instruction pair solved with the GF(2) searches;
auto_screened.json: pairs screened without them, the chosen pair searched in full
(solver._solve_ops), with the faster LinearLayout.__call__, keeps_vectors and
placement_index. The same answer on every problem both solve.
"""
import time, itertools, json, sys
from swizzlekit.smem import solve
cases=[]
for (r,c),eb,acc in itertools.product([(64,64),(32,32),(128,64),(64,32),(16,128),(8,128),(128,128),(256,256),(48,32),(64,40)],[1,2,4],[[],['col'],['row','col']]):
    for rd,wr in (('auto','auto'),('auto:col','cp.async:row'),('auto','tma')):
        cases.append((r,c,eb,acc,rd,wr))
out=[]
for r,c,eb,acc,rd,wr in cases:
    t=time.time()
    try:
        s=solve(r,c,eb,acc,read=rd,write=wr); res=(s.wavefronts,s.storage,dict(s.instructions))
    except Exception as e: res=('ERR',str(e)[:60],None)
    out.append(((r,c,eb,acc,rd,wr),res,round(time.time()-t,2)))
json.dump(out,open(sys.argv[1],'w'))
print(max(o[2] for o in out), sum(o[2] for o in out))
