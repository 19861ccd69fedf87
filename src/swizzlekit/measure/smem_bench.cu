// Shared-memory bank microbenchmark: one warp, one shared-memory instruction per launch.
//
// Each kernel reads its 32 lanes' byte offsets from a table in global memory (-1 marks an
// inactive lane) and issues exactly one inline-PTX ld.shared / st.shared of 4, 8 or 16 bytes,
// or one ldmatrix / stmatrix (x1, x2, x4).
// Nsight Compute then reads the wavefronts of that single instruction from the hardware
// counters (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum).
//
// Build:  nvcc -O2 -arch=sm_90 -o smem_bench smem_bench.cu
// Input:  a text file, one pattern per line: "<op> <width> a0 a1 ... a31", op one of
//         ld, st, ldmatrix.x{1,2,4}, stmatrix.x{1,2,4} (these with width 16: one 16-byte row each)
// Driven by swizzlekit/measure/smem_bench.py, which writes the patterns and parses ncu's CSV.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

constexpr int kSmemBytes = 48 * 1024;

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

typedef void (*kernel_t)(const int*, float*);

static kernel_t pick(const char* op, int width) {
  if (strcmp(op, "ldmatrix.x1") == 0) return ldsm_x1;
  if (strcmp(op, "ldmatrix.x2") == 0) return ldsm_x2;
  if (strcmp(op, "ldmatrix.x4") == 0) return ldsm_x4;
  if (strcmp(op, "stmatrix.x1") == 0) return stsm_x1;
  if (strcmp(op, "stmatrix.x2") == 0) return stsm_x2;
  if (strcmp(op, "stmatrix.x4") == 0) return stsm_x4;
  bool ld = strcmp(op, "ld") == 0;
  switch (width) {
    case 4: return ld ? ld_w4 : st_w4;
    case 8: return ld ? ld_w8 : st_w8;
    case 16: return ld ? ld_w16 : st_w16;
  }
  fprintf(stderr, "bad width %d\n", width);
  exit(1);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s patterns.txt\n", argv[0]);
    return 2;
  }
  FILE* f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  int *d_addr;
  float* d_out;
  CHECK(cudaMalloc(&d_addr, 32 * sizeof(int)));
  CHECK(cudaMalloc(&d_out, 32 * sizeof(float)));
  char op[16];
  int width, n = 0;
  while (fscanf(f, "%15s %d", op, &width) == 2) {
    int h_addr[32];
    for (int i = 0; i < 32; ++i) {
      if (fscanf(f, "%d", &h_addr[i]) != 1) {
        fprintf(stderr, "pattern %d: expected 32 addresses\n", n);
        return 2;
      }
      if (h_addr[i] >= kSmemBytes || (h_addr[i] >= 0 && h_addr[i] % width)) {
        fprintf(stderr, "pattern %d: bad address %d\n", n, h_addr[i]);
        return 2;
      }
    }
    CHECK(cudaMemcpy(d_addr, h_addr, sizeof(h_addr), cudaMemcpyHostToDevice));
    pick(op, width)<<<1, 32, kSmemBytes>>>(d_addr, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    ++n;
  }
  printf("launched %d patterns\n", n);
  return 0;
}
