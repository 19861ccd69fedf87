// Seed 001's two kernels: a shared-memory tiled SGEMM with the natural 2-D block index
// (matmul_smem<BS>) and the same kernel with its block index remapped by the strip swizzle
// of "Locality-Aware CTA Scheduling" (matmul_swizzle<BS, W>). Written from the seed's
// description; C = A B, row-major fp32, one output element per thread, BS x BS threads.

// Strip swizzle: strips W tile-columns wide, row-major inside a strip, narrower last strip.
// The seed divides the flat index by gridDim.y; that is right only on square grids, so this
// version divides by gridDim.x (identical on the seed's square grids).
__device__ __forceinline__ uint2 strip_swizzle(unsigned width) {
  unsigned idx = blockIdx.y * gridDim.x + blockIdx.x;
  unsigned per_strip = width * gridDim.y;
  unsigned strips = gridDim.x / width;
  unsigned residual = gridDim.x % width;
  unsigned strip_id = idx / per_strip;
  unsigned in_strip = idx % per_strip;
  unsigned use = idx < per_strip * strips ? width : residual;
  unsigned flat = strip_id * width + (in_strip / use) * gridDim.x + in_strip % use;
  return make_uint2(flat % gridDim.x, flat / gridDim.x);
}

template <int BS>
__device__ __forceinline__ void tile_matmul(const float* A, const float* B, float* C, int M,
                                            int N, int K, unsigned bx, unsigned by) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = by * BS + ty, col = bx * BS + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += BS) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

template <int BS>
__global__ void matmul_smem(const float* A, const float* B, float* C, int M, int N, int K) {
  tile_matmul<BS>(A, B, C, M, N, K, blockIdx.x, blockIdx.y);
}

template <int BS, int W>
__global__ void matmul_swizzle(const float* A, const float* B, float* C, int M, int N, int K) {
  uint2 t = strip_swizzle(W);
  tile_matmul<BS>(A, B, C, M, N, K, t.x, t.y);
}
