"""Session 9's merge-window check (docs/cta.md): each traced CTA reads step k at
start + (k + 1/2) * duration / K-steps; reads of one tile and step on one L2 side merge when
they fall within DELTA ns of the first; the predicted lookup share beside ncu's.
Run from the repository root: python3 docs/data/l2_checks/merge_window.py (CPU, minutes)."""
import numpy as np, json, csv
from swizzlekit.gpus import GPUS
d=np.load('docs/data/dispatch/h200/dispatch.npz'); m=json.load(open('docs/data/dispatch/h200/dispatch.json'))
side=np.array([int(x) for x in GPUS['h200'].l2_side_of_sm])
R={}
for r in csv.DictReader(open('src/swizzlekit/data/l2_sweep_h200.csv')):
    R[(int(r['M']),int(r['N']),int(r['K']),r['config'],r['order'],json.dumps(json.loads(r['params']),sort_keys=True),r['persistent'])]=r
eb={'float16':2,'float32':4}
def clusters(times, delta):
    # times sorted; count clusters anchored at first element with window delta
    n=0; anchor=-1e18
    for x in times:
        if x-anchor>=delta: n+=1; anchor=x
    return n
def ratio(run, tr, delta, per_side=True):
    bm,bn,bk=map(int,run['config'].split('x')); tk=-(-run['K']//bk); e=eb[run['dtype']]
    tm_,tn_,sm,st,en=tr.T
    dur=(en-st)/tk
    lo=0; tot=0
    for which,size,ids in ((0,bm*bk*e,tm_),(1,bk*bn*e,tn_)):
        keys=ids*2+ (side[sm] if per_side else 0)
        for key in np.unique(keys):
            sel=keys==key
            s0=st[sel]; dd=dur[sel]
            for k in range(tk):
                times=np.sort(s0+(k+0.5)*dd)
                lo+=clusters(times,delta)*size
                tot+=len(times)*size
    return lo/tot
out=[]
for run in m['runs']:
    if run['persistent'] or run['split']!='fit': continue
    key=(run['M'],run['N'],run['K'],run['config'],run['order'],json.dumps(json.loads(run['params']),sort_keys=True),'False')
    r=R.get(key)
    if r is None: print('missing',key); continue
    bm,bn,bk=map(int,run['config'].split('x'))
    tm,tn,tk=-(-run['M']//bm),-(-run['N']//bn),-(-run['K']//bk)
    loaded=tm*tn*tk*(bm*bk+bk*bn)*eb[run['dtype']]/32
    meas=int(r['tex_read_sectors'])/loaded
    tr=d[f"trace_{run['index']}_0"]
    if tk>40: 
        print(run['name'], 'tk',tk,'meas %.3f'%meas, 'skip big'); continue
    pr=[round(ratio(run,tr,dl),3) for dl in (5,10,20,40,80,160)]
    print(run['name'], 'tk',tk, 'ctas',len(tr), 'meas %.3f'%meas, pr, 'dur/step ns %.0f'%np.median((tr[:,4]-tr[:,3])/tk))
