"""A time-ordered LRU simulation of a tiled GEMM's L2 reads under a CTA order (study only)."""
import heapq, collections, numpy as np

def simulate_time(M, N, K, order, tile, elem, out_bytes, ctas_per_sm, l2_bytes, sms=132,
                  cv=0.05, seed=0, partitions=1, sides=None, ways=0):
    bm, bn, bk = tile
    tk = -(-K // bk)
    a_b, b_b, c_b = bm * bk * elem, bk * bn * elem, bm * bn * out_bytes
    slots = sms * ctas_per_sm
    rng = np.random.default_rng(seed)
    n = len(order)
    dur = np.maximum(1 + cv * rng.standard_normal(n), 0.2)
    free = [(0.0, s) for s in range(slots)]
    heapq.heapify(free)
    start = np.zeros(n); slot = np.zeros(n, int)
    for j in range(n):
        t, s = heapq.heappop(free)
        start[j] = t; slot[j] = s
        heapq.heappush(free, (t + dur[j], s))
    # events: (time, kind, cta, k)
    ks = (np.arange(tk) + 0.5) / tk
    times = start[:, None] + ks[None, :] * dur[:, None]
    ev_t = np.concatenate([times.ravel(), start + dur])
    ev_cta = np.concatenate([np.repeat(np.arange(n), tk), np.arange(n)])
    ev_k = np.concatenate([np.tile(np.arange(tk), n), -np.ones(n, int)])
    idx = np.argsort(ev_t, kind="stable")
    cap = l2_bytes / partitions
    lru = [collections.OrderedDict() for _ in range(partitions)]
    used = [0.0] * partitions
    dram = 0.0
    part_of = (np.zeros(n, int) if partitions == 1 else
               (sides[slot % sms] if sides is not None else rng.integers(0, partitions, n)))
    if ways:
        line = (a_b + b_b) / 2
        nsets = max(1, int(cap / (ways * line)))
        sets = [[collections.OrderedDict() for _ in range(nsets)] for _ in range(partitions)]
    def touch(p, key, size):
        if ways:
            d = sets[p][hash(key) % nsets]
            if key in d:
                d.move_to_end(key); return True
            d[key] = size
            if len(d) > ways:
                d.popitem(last=False)
            return False
        d = lru[p]
        if key in d:
            d.move_to_end(key); return True
        d[key] = size; used[p] += size
        while used[p] > cap:
            _, sz = d.popitem(last=False); used[p] -= sz
        return False
    def has(q, key):
        return key in (sets[q][hash(key) % nsets] if ways else lru[q])
    for e in idx:
        j = ev_cta[e]; k = ev_k[e]; p = part_of[j]
        m, nn = order[j]
        if k < 0:
            touch(p, ("c", m, nn), c_b)
            continue
        for key, size in ((("a", m, k), a_b), (("b", nn, k), b_b)):
            if not touch(p, key, size):
                if partitions > 1 and any(has(q, key) for q in range(partitions) if q != p):
                    continue            # served across the fabric
                dram += size
    return dram
