// Which L2 partition is near which SM: the latency of L2 hits, from every SM, per address.
//
// Every block runs alone on its SM (the launcher asks for enough dynamic shared memory that
// only one fits) and records its %smid. One thread first reads every probed line with
// ld.global.cg (cached in L2 only), so the lines are L2-resident. Then, for each line, it
// reads the line CHAIN times in a dependent chain (each address adds the value just read,
// which is zero) and stores the end of the chain to shared memory before reading the clock,
// so the clock cannot be read before the last value arrives. Each address is homed in one of
// the L2 partitions: from an SM beside that partition the hit is near and fast, from the other
// side it crosses the fabric. Driven by swizzlekit/lab/experiments/dispatch.py.

#define CHAIN 8

extern "C" __global__ void l2_latency(const unsigned* __restrict__ buf,
                                      const int* __restrict__ offsets, int n,
                                      long long* __restrict__ latency, int* __restrict__ smid) {
  __shared__ volatile unsigned sink[1];
  if (threadIdx.x != 0) return;
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  smid[blockIdx.x] = static_cast<int>(sm);
  unsigned carry = 0;                         // buf holds zeros: a dependency, never a shift
  for (int i = 0; i < n; ++i) {
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buf + offsets[i] + carry));
    carry += v;
  }
  sink[0] = carry;
  for (int i = 0; i < n; ++i) {
    const unsigned* p = buf + offsets[i] + carry;
    long long t0 = clock64();
    for (int j = 0; j < CHAIN; ++j) {
      unsigned v;
      asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
      p += v;
    }
    sink[0] = static_cast<unsigned>(reinterpret_cast<unsigned long long>(p));
    long long t1 = clock64();
    latency[static_cast<long long>(blockIdx.x) * n + i] = (t1 - t0) / CHAIN;
  }
}
