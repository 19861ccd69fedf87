// Issue-rate microbenchmarks: how fast this GPU retires FFMA (fp32 CUDA cores) and the
// warp-level mma.sync tensor-core instructions that WMMA compiles to on sm_80 and sm_90.
// No memory traffic in the loop: CHAINS independent accumulators per thread (or per warp)
// hide the latency, and the result is written once so the work is not removed.

#define CHAINS 8

// 2 flops per FFMA, CHAINS chains, `iters` rounds of 8 unrolled FFMAs each.
extern "C" __global__ void ffma_peak(float* out, int iters) {
  float acc[CHAINS];
  const float x = 1.0f + threadIdx.x * 1e-7f, y = 1e-7f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) acc[c] = threadIdx.x + c;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int u = 0; u < 8; ++u)
#pragma unroll
      for (int c = 0; c < CHAINS; ++c) acc[c] = fmaf(acc[c], x, y);
  }
  float s = 0.f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += acc[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// One mma.sync peak kernel: INSTR on CHAINS independent accumulators, A and B fixed.
#define MMA_PEAK(NAME, INSTR, A0, B0, B1)                                                   \
  extern "C" __global__ void NAME(float* out, int iters) {                                 \
    unsigned a[4], b[2] = {B0, B1};                                                        \
    _Pragma("unroll") for (int i = 0; i < 4; ++i) a[i] = (A0) + threadIdx.x + i;           \
    float c[CHAINS][4] = {};                                                               \
    for (int i = 0; i < iters; ++i) {                                                      \
      _Pragma("unroll") for (int k = 0; k < CHAINS; ++k)                                   \
        asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"      \
                     : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])          \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));  \
    }                                                                                      \
    float s = 0.f;                                                                         \
    _Pragma("unroll") for (int k = 0; k < CHAINS; ++k) s += c[k][0] + c[k][1] + c[k][2] + c[k][3]; \
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;                                        \
  }

// m16n8k8 TF32 -> FP32: 2 * 16 * 8 * 8 = 2048 flops per warp instruction (A ~ 1.0f).
MMA_PEAK(mma_tf32_peak, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 0x3f800000u,
         0x3f000000u, 0x3e800000u)
// m16n8k16 FP16 -> FP32: 2 * 16 * 8 * 16 = 4096 flops per warp instruction (halves ~ 1.0).
MMA_PEAK(mma_f16_peak, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 0x3c003c00u,
         0x38003800u, 0x34003400u)
