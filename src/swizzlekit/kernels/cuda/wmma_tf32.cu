// Seed 002's tensor-core rung: WMMA TF32 (m16n16k8), C = A B, row-major fp32, any M, N, K.
//
//   sgemm_wmma_tf32<STAGES, BK, ORDER, P, VEC4>
//
// 128x128xBK block tiles, 8 warps in a 2 x 4 grid, each warp 64 x 32 of C as 4 x 2
// accumulator fragments. Tiles go global -> shared by cp.async (16 bytes, zero-filled past
// the edges; a scalar path when rows are not 16-byte aligned) through a STAGES-deep ring in
// dynamic shared memory (STAGES = 1: load, wait, compute). Rows are padded by 4 floats so
// that fragment loads stay 32-byte aligned and spread over the banks. ORDER/P: the block
// swizzle, an order of swizzlekit.cta over a 1-D grid (sk_select in orders.cuh, prepended by
// the builder with the cp.async helpers of cp_async.cuh). The dynamic shared memory a launch
// needs is ladder.wmma_smem(STAGES, BK). On sm_90 WMMA compiles to mma.sync (HMMA), not
// Hopper's wgmma: see docs/sgemm.md for the ceiling that sets.
#include <mma.h>
using namespace nvcuda;

template <int STAGES, int BK, int ORDER, int P, bool VEC4>
__global__ void __launch_bounds__(256)
    sgemm_wmma_tf32(int M, int N, int K, const float* __restrict__ A,
                    const float* __restrict__ B, float* __restrict__ C) {
  constexpr int BM = 128, BN = 128, LDA = BK + 4, LDB = BN + 4;
  constexpr int STAGE = BM * LDA + BK * LDB;               // floats per stage
  extern __shared__ __align__(128) float smem[];           // STAGES x {A tile, B tile}
  const int tid = threadIdx.x, warp = tid / 32;
  const int wm = warp / 4, wn = warp % 4;                  // warp tile: rows wm*64, cols wn*32
  const sk_tile tile = sk_select<ORDER>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, P);
  if (tile.n * BN >= N) return;                            // a spare block of a launch-grid order
  const int bm = tile.m * BM, bn = tile.n * BN;
  const int tiles_k = (K + BK - 1) / BK;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[4][2];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.f);

  // Tile t into stage s: A is 128 x BK, B is BK x 128, BK * 32 float4 each.
  auto load = [&](int t, int s) {
    float* As = smem + s * STAGE;
    float* Bs = As + BM * LDA;
    const int k0 = t * BK;
#pragma unroll
    for (int q = 0; q < BK / 8; ++q) {
      int idx = tid + q * 256;
      int ar = idx / (BK / 4), ac = (idx % (BK / 4)) * 4;  // A row, col (in K)
      int br = idx / 32, bc = (idx % 32) * 4;              // B row (in K), col
      int gar = bm + ar, gac = k0 + ac, gbr = k0 + br, gbc = bn + bc;
      if (VEC4) {
        int ab = (gar < M && gac < K) ? 4 * min(4, K - gac) : 0;
        cp_async16(&As[ar * LDA + ac], ab ? &A[(size_t)gar * K + gac] : A, ab);
        int bb = (gbr < K && gbc < N) ? 4 * min(4, N - gbc) : 0;
        cp_async16(&Bs[br * LDB + bc], bb ? &B[(size_t)gbr * N + gbc] : B, bb);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          As[ar * LDA + ac + e] = (gar < M && gac + e < K) ? A[(size_t)gar * K + gac + e] : 0.f;
          Bs[br * LDB + bc + e] = (gbr < K && gbc + e < N) ? B[(size_t)gbr * N + gbc + e] : 0.f;
        }
      }
    }
  };
  auto compute = [&](int s) {
    const float* As = smem + s * STAGE;
    const float* Bs = As + BM * LDA;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        wmma::load_matrix_sync(a[i], &As[(wm * 64 + i * 16) * LDA + kk], LDA);
#pragma unroll
        for (int e = 0; e < a[i].num_elements; ++e) a[i].x[e] = wmma::__float_to_tf32(a[i].x[e]);
      }
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        wmma::load_matrix_sync(b[j], &Bs[kk * LDB + wn * 32 + j * 16], LDB);
#pragma unroll
        for (int e = 0; e < b[j].num_elements; ++e) b[j].x[e] = wmma::__float_to_tf32(b[j].x[e]);
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  };

  if (STAGES == 1) {
    for (int t = 0; t < tiles_k; ++t) {
      load(t, 0);
      cp_async_commit();
      cp_async_wait<0>();
      __syncthreads();
      compute(0);
      __syncthreads();
    }
  } else {
    // prologue: tiles 0 .. STAGES-2 in flight
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
      if (s < tiles_k) load(s, s);
      cp_async_commit();
    }
    for (int t = 0; t < tiles_k; ++t) {
      cp_async_wait<(STAGES > 1 ? STAGES - 2 : 0)>();
      __syncthreads();  // tile t has landed for every thread; stage (t-1) % STAGES is free
      const int next = t + STAGES - 1;
      if (next < tiles_k) load(next, next % STAGES);
      cp_async_commit();
      compute(t % STAGES);
    }
    cp_async_wait<0>();
    __syncthreads();
  }
  // epilogue through shared memory (each warp a 16 x 16 scratch), stores clipped to C
  float* scratch = &smem[warp * 16 * 20];
  const int lane = tid % 32;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 20, wmma::mem_row_major);
      __syncwarp();
#pragma unroll
      for (int e = lane; e < 256; e += 32) {
        int r = bm + wm * 64 + i * 16 + e / 16, c = bn + wn * 32 + j * 16 + e % 16;
        if (r < M && c < N) C[(size_t)r * N + c] = scratch[(e / 16) * 20 + e % 16];
      }
      __syncwarp();
    }
}
