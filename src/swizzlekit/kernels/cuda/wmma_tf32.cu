// Seed 002's tensor-core rung: WMMA TF32 (m16n16k8), C = A B, row-major fp32, any M, N, K.
// 128x128x32 block tiles, 8 warps in a 2 x 4 grid, each warp 64 x 32 of C as 4 x 2
// accumulator fragments. Tiles go global -> shared by cp.async (16 bytes, zero-filled past
// the edges; a scalar path when rows are not 16-byte aligned), rows padded by 4 floats so
// that fragment loads stay 32-byte aligned and spread over the banks. On sm_90 WMMA compiles
// to mma.sync (HMMA), not Hopper's wgmma: see docs/sgemm.md for what that costs.
#include <mma.h>
using namespace nvcuda;

__device__ __forceinline__ void wmma_cp_async16(void* smem, const void* gmem, int src_bytes) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem),
               "r"(src_bytes));
}

template <bool VEC4>
__global__ void __launch_bounds__(256)
    sgemm_wmma_tf32(int M, int N, int K, const float* __restrict__ A,
                    const float* __restrict__ B, float* __restrict__ C) {
  constexpr int BM = 128, BN = 128, BK = 32, LDA = BK + 4, LDB = BN + 4;
  __shared__ __align__(128) float As[BM * LDA];   // A tile, row-major (K contiguous)
  __shared__ __align__(128) float Bs[BK * LDB];   // B tile, row-major (N contiguous)
  const int tid = threadIdx.x, warp = tid / 32;
  const int wm = warp / 4, wn = warp % 4;          // warp tile: rows wm*64, cols wn*32
  const sk_tile tile = sk_row(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN);
  const int bm = tile.m * BM, bn = tile.n * BN;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[4][2];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.f);

  for (int k0 = 0; k0 < K; k0 += BK) {
    // A: 128 x 32 floats = 1024 float4, 4 per thread; B: 32 x 128 = 1024 float4, 4 per thread
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      int idx = tid + q * 256;
      int ar = idx / 8, ac = (idx % 8) * 4;          // A row, col (in K)
      int br = idx / 32, bc = (idx % 32) * 4;        // B row (in K), col
      int gar = bm + ar, gac = k0 + ac, gbr = k0 + br, gbc = bn + bc;
      if (VEC4) {
        int ab = (gar < M && gac < K) ? 4 * min(4, K - gac) : 0;
        wmma_cp_async16(&As[ar * LDA + ac], ab ? &A[(size_t)gar * K + gac] : A, ab);
        int bb = (gbr < K && gbc < N) ? 4 * min(4, N - gbc) : 0;
        wmma_cp_async16(&Bs[br * LDB + bc], bb ? &B[(size_t)gbr * N + gbc] : B, bb);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          As[ar * LDA + ac + e] = (gar < M && gac + e < K) ? A[(size_t)gar * K + gac + e] : 0.f;
          Bs[br * LDB + bc + e] = (gbr < K && gbc + e < N) ? B[(size_t)gbr * N + gbc + e] : 0.f;
        }
      }
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        wmma::load_matrix_sync(a[i], &As[(wm * 64 + i * 16) * LDA + kk], LDA);
#pragma unroll
        for (int t = 0; t < a[i].num_elements; ++t) a[i].x[t] = wmma::__float_to_tf32(a[i].x[t]);
      }
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        wmma::load_matrix_sync(b[j], &Bs[kk * LDB + wn * 32 + j * 16], LDB);
#pragma unroll
        for (int t = 0; t < b[j].num_elements; ++t) b[j].x[t] = wmma::__float_to_tf32(b[j].x[t]);
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  // epilogue through shared memory (each warp a 16 x 16 scratch), stores clipped to C
  float* scratch = &As[warp * 16 * 20];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 20, wmma::mem_row_major);
      __syncwarp();
      int lane = tid % 32;
#pragma unroll
      for (int e = lane; e < 256; e += 32) {
        int r = bm + wm * 64 + i * 16 + e / 16, c = bn + wn * 32 + j * 16 + e % 16;
        if (r < M && c < N) C[(size_t)r * N + c] = scratch[(e / 16) * 20 + e % 16];
      }
      __syncwarp();
    }
}
