// Seed 002's SGEMM ladder (C = A B, row-major fp32, any M, N, K), one template per rung.
// Compiled at run time with NVRTC (swizzlekit.kernels.cuda.nvrtc); the seed's parameters are
// template parameters, not copies of a file.
//
//   sgemm_naive               one thread per output element, straight from global memory
//   sgemm_smem<BS>            BS x BS tiles of A and B staged in shared memory
//   sgemm_reg<...,SWZ,VEC4>   the seed's sgemmopt: 128x128x8 block tiles, 8x8 outputs per
//                             thread, A stored transposed, float4 shared-memory reads,
//                             unrolled, double-buffered. SWZ=true is gemm_bank_free with the
//                             layout swizzlekit.smem.solve chose for these tiles: Swizzle<1,2,3>.
//                             VEC4: float4 global loads and stores (rows 16-byte aligned).
//                             ORDER/P: the block swizzle, a CTA order of swizzlekit.cta over
//                             a 1-D grid (orders.cuh, prepended by the builder): 0 the natural
//                             row order, 1 grouped(P), 2 strip(P), 3 snake, 4 seed 002's
//                             z-layer (P layers; its launch order over a 1-D grid of
//                             sk_zlayer_ctas blocks, the spare ones exiting at once).
//   sgemm_async<STAGES,VEC4>  bank_free with B loaded by cp.async, STAGES deep
//   sgemm_warp<BK,MINB,...>   past the seed: warp tiles of 32x64, 4x4 sub-tiles per lane,
//                             A^T stored under the solver's swizzle for BK (8 or 16)

__global__ void sgemm_naive(int M, int N, int K, const float* __restrict__ A,
                            const float* __restrict__ B, float* __restrict__ C) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
  C[(size_t)row * N + col] = acc;
}

template <int BS>
__global__ void sgemm_smem(int M, int N, int K, const float* __restrict__ A,
                           const float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
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

// Column c of a 128-float shared-memory row, swizzled or not.
//   Swizzle<1,2,3> over (row * 128 + col) touches only the column bits:
//   col bits: xYxZxx   Z (bit 2, which float4 of a pair) ^= Y (bit 5, which 32-float half)
// so the two float4 halves of a thread's 8 floats fall in different banks.
template <bool SWZ>
__device__ __forceinline__ int swz(int c) {
  return SWZ ? (c ^ (((c >> 5) & 1) << 2)) : c;
}

// A thread's TM x TN outputs at (r0, c0), clipped to M x N; float4 stores when VEC4.
template <int TM, int TN, bool VEC4>
__device__ __forceinline__ void store_tile(const float (&acc)[TM][TN], float* __restrict__ C,
                                           int M, int N, int r0, int c0) {
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int r = r0 + i;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      int c = c0 + j;
      if (VEC4 && c + 3 < N) {
        *reinterpret_cast<float4*>(&C[(size_t)r * N + c]) =
            make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      } else {
        for (int q = 0; q < 4; ++q)
          if (c + q < N) C[(size_t)r * N + c + q] = acc[i][j + q];
      }
    }
  }
}

template <int ORDER, int P>
__device__ __forceinline__ sk_tile block_tile(int tiles_m, int tiles_n) {
  return sk_select<ORDER>(blockIdx.x, tiles_m, tiles_n, P);
}

template <int BM, int BN, int BK, int TM, int TN, bool SWZ, bool VEC4, int ORDER = 0, int P = 1>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_reg(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
              float* __restrict__ C) {
  static_assert(BM == 128 && BN == 128 && BK == 8 && TM == 8 && TN == 8, "the seed's shape");
  __shared__ __align__(16) float As[2][BK][BM];  // A transposed: As[k][m]
  __shared__ __align__(16) float Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % (BN / TN), ty = tid / (BN / TN);  // 16 x 16 threads
  const sk_tile tile = block_tile<ORDER, P>((M + BM - 1) / BM, (N + BN - 1) / BN);
  if (tile.n * BN >= N) return;  // a spare block of a launch-grid order (zlayer): no tile
  const int bm = tile.m * BM, bn = tile.n * BN;
  // each thread moves 4 floats of A (row tid/2, k (tid%2)*4) and 4 of B (row tid/32, col (tid%32)*4)
  const int a_r = tid / 2, a_c = (tid % 2) * 4;
  const int b_r = tid / 32, b_c = (tid % 32) * 4;
  float a_ld[4], b_ld[4];
  float acc[TM][TN] = {};

  auto load = [&](int k0) {
    int gr = bm + a_r, gk = k0 + a_c;
    if (VEC4 && gr < M && gk + 3 < K) {
      float4 v = *reinterpret_cast<const float4*>(&A[(size_t)gr * K + gk]);
      a_ld[0] = v.x; a_ld[1] = v.y; a_ld[2] = v.z; a_ld[3] = v.w;
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i)
        a_ld[i] = (gr < M && gk + i < K) ? A[(size_t)gr * K + gk + i] : 0.f;
    }
    int gk2 = k0 + b_r, gc = bn + b_c;
    if (VEC4 && gk2 < K && gc + 3 < N) {
      float4 v = *reinterpret_cast<const float4*>(&B[(size_t)gk2 * N + gc]);
      b_ld[0] = v.x; b_ld[1] = v.y; b_ld[2] = v.z; b_ld[3] = v.w;
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i)
        b_ld[i] = (gk2 < K && gc + i < N) ? B[(size_t)gk2 * N + gc + i] : 0.f;
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int i = 0; i < 4; ++i) As[buf][a_c + i][swz<SWZ>(a_r)] = a_ld[i];
    *reinterpret_cast<float4*>(&Bs[buf][b_r][swz<SWZ>(b_c)]) =
        make_float4(b_ld[0], b_ld[1], b_ld[2], b_ld[3]);
  };

  load(0);
  store(0);
  __syncthreads();
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += BK) {
    bool more = k0 + BK < K;
    if (more) load(k0 + BK);  // prefetch into registers while computing
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
      float4 a0 = *reinterpret_cast<const float4*>(&As[buf][k][swz<SWZ>(ty * TM)]);
      float4 a1 = *reinterpret_cast<const float4*>(&As[buf][k][swz<SWZ>(ty * TM + 4)]);
      float4 b0 = *reinterpret_cast<const float4*>(&Bs[buf][k][swz<SWZ>(tx * TN)]);
      float4 b1 = *reinterpret_cast<const float4*>(&Bs[buf][k][swz<SWZ>(tx * TN + 4)]);
      a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w;
      a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
      b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w;
      b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    if (more) store(buf ^ 1);
    __syncthreads();
    buf ^= 1;
  }
  store_tile<TM, TN, VEC4>(acc, C, M, N, bm + ty * TM, bn + tx * TN);
}

// ---------------------------------------------------------------------------------------
// sgemm_async<STAGES>: bank_free with a STAGES-deep pipeline. B's tiles go global -> shared
// by cp.async (16 bytes, zero-filled past the edges); A's are stored transposed, which
// cp.async cannot do, so they still pass through registers. VEC4=false (rows not 16-byte
// aligned) takes the synchronous path for B as well.
template <int STAGES, bool VEC4>
__global__ void __launch_bounds__(256)
    sgemm_async(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                float* __restrict__ C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ __align__(16) float As[STAGES][BK][BM];
  __shared__ __align__(16) float Bs[STAGES][BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const sk_tile tile = sk_row(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN);
  const int bm = tile.m * BM, bn = tile.n * BN;
  const int a_r = tid / 2, a_c = (tid % 2) * 4;
  const int b_r = tid / 32, b_c = (tid % 32) * 4;
  const int tiles_k = (K + BK - 1) / BK;
  float a_ld[4];
  float acc[TM][TN] = {};

  auto load_a = [&](int t) {
    int gr = bm + a_r, gk = t * BK + a_c;
#pragma unroll
    for (int i = 0; i < 4; ++i) a_ld[i] = (gr < M && gk + i < K) ? A[(size_t)gr * K + gk + i] : 0.f;
  };
  auto store_a = [&](int s) {
#pragma unroll
    for (int i = 0; i < 4; ++i) As[s][a_c + i][swz<true>(a_r)] = a_ld[i];
  };
  auto load_b = [&](int t, int s) {  // issue (VEC4) or perform the copy of B's tile t
    int gk = t * BK + b_r, gc = bn + b_c;
    float* dst = &Bs[s][b_r][swz<true>(b_c)];
    if (VEC4) {
      int bytes = (gk < K && gc < N) ? 4 * min(4, N - gc) : 0;
      cp_async16(dst, bytes ? &B[(size_t)gk * N + gc] : B, bytes);
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i) dst[i] = (gk < K && gc + i < N) ? B[(size_t)gk * N + gc + i] : 0.f;
    }
  };

  // prologue: tiles 0 .. STAGES-2
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles_k) {
      load_a(s);
      store_a(s);
      load_b(s, s);
    }
    cp_async_commit();
  }
  for (int t = 0; t < tiles_k; ++t) {
    cp_async_wait<STAGES - 2>();
    __syncthreads();  // tile t is in stage t % STAGES, for every thread
    const int next = t + STAGES - 1, ns = next % STAGES, cs = t % STAGES;
    if (next < tiles_k) {
      load_a(next);
      load_b(next, ns);
    }
    cp_async_commit();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float4 a0 = *reinterpret_cast<const float4*>(&As[cs][k][swz<true>(ty * TM)]);
      float4 a1 = *reinterpret_cast<const float4*>(&As[cs][k][swz<true>(ty * TM + 4)]);
      float4 b0 = *reinterpret_cast<const float4*>(&Bs[cs][k][swz<true>(tx * TN)]);
      float4 b1 = *reinterpret_cast<const float4*>(&Bs[cs][k][swz<true>(tx * TN + 4)]);
      float a[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    if (next < tiles_k) store_a(ns);  // ns was last read in iteration t-1: safe after the sync
  }
  store_tile<TM, TN, VEC4>(acc, C, M, N, bm + ty * TM, bn + tx * TN);
}

// ---------------------------------------------------------------------------------------
// sgemm_warp<BK, TNS, MINB, ORDER, P, VEC4>: the rung past the seed. 128 x (64 TNS) x BK
// block tiles, 256 threads as 8 warps in a 4 (M) x 2 (N) grid of 32 x (32 TNS) warp tiles. A
// lane owns a 2 x TNS grid of 4x4 sub-tiles: lanes form 4 x 8 within the warp, the sub-tiles
// sit 16 rows and 32 columns apart. Per k, a warp reads 4 distinct float4 of A (broadcast)
// and 8 contiguous float4 of B per sub-tile column: one wavefront each, where sgemmopt's 8
// contiguous outputs per thread make B's reads span 512 bytes. MINB: __launch_bounds__'s
// minimum blocks per SM (2 caps registers at 128).
//
// A is stored transposed, As[k][m]. A thread's 4 scalar stores of one float4 of A land BK/4
// k-groups of a warp on one bank; swizzlekit.smem.solve picks, for these accesses (cases
// "SGEMM warp-tiled A^T tile ..."), a swizzle that moves whole 8- or 16-float groups, so the
// float4 reads stay contiguous and aligned:
//   BK = 16, Swizzle<2,3,6>:  offset = k * 128 + m:  k3 k2 k1 k0 m6 m5 m4 m3 m2 m1 m0
//                                                    m4 m3 ^= k3 k2   (bits 3,4 ^= bits 9,10)
//   BK = 8,  Swizzle<1,4,5>:  offset = k * 128 + m:     k2 k1 k0 m6 m5 m4 m3 m2 m1 m0
//                                                    m4 ^= k2         (bit 4 ^= bit 9)
template <int BK>
__device__ __forceinline__ int swz_at(int k, int m) {
  static_assert(BK == 8 || BK == 16, "BK is 8 or 16");
  constexpr int SHIFT = BK == 16 ? 3 : 4;
  return k * 128 + (m ^ (((k >> 2) & (BK / 4 - 1)) << SHIFT));
}

template <int BK, int TNS, int MINB, int ORDER, int P, bool VEC4>
__global__ void __launch_bounds__(256, MINB)
    sgemm_warp(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
               float* __restrict__ C) {
  constexpr int BM = 128, BN = 64 * TNS, Q = BK / 8, QB = BK * BN / 1024;  // float4 per thread
  __shared__ __align__(16) float As[2][BK * BM];
  __shared__ __align__(16) float Bs[2][BK * BN];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int row0 = (warp / 2) * 32 + (lane / 8) * 4;   // + 16 * s
  const int col0 = (warp % 2) * (BN / 2) + (lane % 8) * 4;   // + 32 * t
  const sk_tile tile = block_tile<ORDER, P>((M + BM - 1) / BM, (N + BN - 1) / BN);
  if (tile.n * BN >= N) return;
  const int bm = tile.m * BM, bn = tile.n * BN;
  constexpr int AR = 256 / (BK / 4);                           // rows of A apart per q
  const int a_r = tid / (BK / 4), a_c = (tid % (BK / 4)) * 4;  // rows a_r + AR q
  constexpr int BR = 256 / (BN / 4);                           // rows of B apart per q
  const int b_r = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;  // rows b_r + BR q
  // Row pointers computed once and walked along K: no 64-bit index math in the loop.
  const float* a_src = A + (size_t)(bm + a_r) * K + a_c;
  const float* b_src = B + (size_t)b_r * N + bn + b_c;
  float4 a_ld[Q], b_ld[QB];
  float acc[2][TNS][4][4] = {};

  auto load4 = [&](const float* __restrict__ p, bool row_ok, int room) {  // room: in-bounds cols
    if (VEC4)  // K and N are multiples of 4, so room is too: a float4 is all in or all out
      return (row_ok && room >= 4) ? *reinterpret_cast<const float4*>(p) : make_float4(0, 0, 0, 0);
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = (row_ok && i < room) ? p[i] : 0.f;
    return make_float4(v[0], v[1], v[2], v[3]);
  };
  auto load = [&](int k0) {
#pragma unroll
    for (int q = 0; q < Q; ++q)
      a_ld[q] = load4(a_src + (size_t)AR * q * K + k0, bm + a_r + AR * q < M, K - k0 - a_c);
#pragma unroll
    for (int q = 0; q < QB; ++q)
      b_ld[q] = load4(b_src + (size_t)(k0 + BR * q) * N, k0 + b_r + BR * q < K, N - bn - b_c);
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const int m = a_r + AR * q;
      As[buf][swz_at<BK>(a_c + 0, m)] = a_ld[q].x;
      As[buf][swz_at<BK>(a_c + 1, m)] = a_ld[q].y;
      As[buf][swz_at<BK>(a_c + 2, m)] = a_ld[q].z;
      As[buf][swz_at<BK>(a_c + 3, m)] = a_ld[q].w;
    }
#pragma unroll
    for (int q = 0; q < QB; ++q)
      *reinterpret_cast<float4*>(&Bs[buf][(b_r + BR * q) * BN + b_c]) = b_ld[q];
  };

  load(0);
  store(0);
  __syncthreads();
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += BK) {
    const bool more = k0 + BK < K;
    if (more) load(k0 + BK);  // the next tile's global loads fly while this one is computed
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[2][4], b[TNS][4];
#pragma unroll
      for (int s = 0; s < 2; ++s) {
        float4 va = *reinterpret_cast<const float4*>(&As[buf][swz_at<BK>(k, row0 + 16 * s)]);
        a[s][0] = va.x; a[s][1] = va.y; a[s][2] = va.z; a[s][3] = va.w;
      }
#pragma unroll
      for (int t = 0; t < TNS; ++t) {
        float4 vb = *reinterpret_cast<const float4*>(&Bs[buf][k * BN + col0 + 32 * t]);
        b[t][0] = vb.x; b[t][1] = vb.y; b[t][2] = vb.z; b[t][3] = vb.w;
      }
#pragma unroll
      for (int s = 0; s < 2; ++s)
#pragma unroll
        for (int t = 0; t < TNS; ++t)
#pragma unroll
          for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) acc[s][t][i][j] += a[s][i] * b[t][j];
    }
    if (more) store(buf ^ 1);  // buf ^ 1 was last read before the previous barrier
    __syncthreads();
    buf ^= 1;
  }
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int t = 0; t < TNS; ++t)
      store_tile<4, 4, VEC4>(acc[s][t], C, M, N, bm + row0 + 16 * s, bn + col0 + 32 * t);
}
