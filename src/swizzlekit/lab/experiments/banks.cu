// Shared-memory bank microbenchmark: one warp, one shared-memory instruction per launch.
//
// Each kernel reads its 32 lanes' byte offsets from a table in global memory (-1 marks an
// inactive lane) and issues exactly one inline-PTX ld.shared / st.shared of 4, 8 or 16 bytes,
// or one ldmatrix / stmatrix (x1, x2, x4).
// Nsight Compute then reads the wavefronts of that single instruction from the hardware
// counters (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum).
//
// Compiled by NVRTC and launched through the driver API like every swizzlekit kernel
// (swizzlekit.kernels.cuda), one launch of one warp per pattern, with 48 KiB of dynamic
// shared memory. Driven by swizzlekit/lab/experiments/banks.py, which writes the patterns,
// launches them under Nsight Compute and parses its report.

__device__ __forceinline__ unsigned smem_base() {
  extern __shared__ __align__(16) unsigned char smem[];
  return static_cast<unsigned>(__cvta_generic_to_shared(smem));
}

extern "C" __global__ void ld_w4(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  float r = 0.f;
  if (a >= 0) asm volatile("ld.shared.f32 %0, [%1];" : "=f"(r) : "r"(smem_base() + a));
  out[threadIdx.x] = r;
}

extern "C" __global__ void ld_w8(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  float r0 = 0.f, r1 = 0.f;
  if (a >= 0)
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(r0), "=f"(r1) : "r"(smem_base() + a));
  out[threadIdx.x] = r0 + r1;
}

extern "C" __global__ void ld_w16(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  float r0 = 0.f, r1 = 0.f, r2 = 0.f, r3 = 0.f;
  if (a >= 0)
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(r0), "=f"(r1), "=f"(r2), "=f"(r3)
                 : "r"(smem_base() + a));
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}

extern "C" __global__ void st_w4(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  float v = static_cast<float>(threadIdx.x);
  if (a >= 0) asm volatile("st.shared.f32 [%0], %1;" ::"r"(smem_base() + a), "f"(v) : "memory");
  out[threadIdx.x] = v;
}

extern "C" __global__ void st_w8(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  float v = static_cast<float>(threadIdx.x);
  if (a >= 0)
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(smem_base() + a), "f"(v), "f"(v + 1.f)
                 : "memory");
  out[threadIdx.x] = v;
}

extern "C" __global__ void st_w16(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  float v = static_cast<float>(threadIdx.x);
  if (a >= 0)
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(smem_base() + a), "f"(v),
                 "f"(v + 1.f), "f"(v + 2.f), "f"(v + 3.f)
                 : "memory");
  out[threadIdx.x] = v;
}

// ldmatrix / stmatrix: every lane takes part (.sync.aligned); lanes 8*i .. 8*i+7 give the row
// addresses of matrix i. Rows that the instruction does not use are given -1 and read as 0.
extern "C" __global__ void ldsm_x1(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  unsigned r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
               : "=r"(r0) : "r"(smem_base() + (a < 0 ? 0 : a)));
  out[threadIdx.x] = __uint_as_float(r0);
}
extern "C" __global__ void ldsm_x2(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  unsigned r0, r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(r0), "=r"(r1) : "r"(smem_base() + (a < 0 ? 0 : a)));
  out[threadIdx.x] = __uint_as_float(r0 ^ r1);
}
extern "C" __global__ void ldsm_x4(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_base() + (a < 0 ? 0 : a)));
  out[threadIdx.x] = __uint_as_float(r0 ^ r1 ^ r2 ^ r3);
}
extern "C" __global__ void stsm_x1(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  unsigned v = threadIdx.x;
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
               ::"r"(smem_base() + (a < 0 ? 0 : a)), "r"(v) : "memory");
  out[threadIdx.x] = __uint_as_float(v);
}
extern "C" __global__ void stsm_x2(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  unsigned v = threadIdx.x;
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};"
               ::"r"(smem_base() + (a < 0 ? 0 : a)), "r"(v), "r"(v + 1) : "memory");
  out[threadIdx.x] = __uint_as_float(v);
}
extern "C" __global__ void stsm_x4(const int* __restrict__ addr, float* out) {
  int a = addr[threadIdx.x];
  unsigned v = threadIdx.x;
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
               ::"r"(smem_base() + (a < 0 ? 0 : a)), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)
               : "memory");
  out[threadIdx.x] = __uint_as_float(v);
}
