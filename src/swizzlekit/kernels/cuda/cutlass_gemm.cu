// CUTLASS's Hopper GEMM, C = A B with fp32 accumulation, A, B and C row-major, 16-bit
// (SWIZZLEKIT_ELEMENT: cutlass::bfloat16_t or cutlass::half_t, set when it is compiled).
//
// Warp-specialized (one producer warpgroup issuing TMA loads, two consumer warpgroups
// sharing each 128x256x64 tile's wgmma), persistent, and in clusters of two CTAs along M:
// the pair's two tiles share a column of B, and each CTA loads half of B's tile and
// multicasts it to both. That is what reads a B whose rows do not start on 64-byte
// boundaries at the speed of aligned rows (docs/data/bench/cutlass_probe/), which a Triton
// 3.6 kernel cannot do: it has no clusters.
//
//   cluster (2x1x1):   CTA 0 -> tile (m,   n)   A rows m*128..      B tile (k, n) <- half by
//                      CTA 1 -> tile (m+1, n)   A rows (m+1)*128..  each CTA, multicast to both
//
// Two more builds run tiles in pairs along N sharing A's tile (-DSWIZZLEKIT_TILE_M=256
// -DSWIZZLEKIT_CLUSTER_M=1 -DSWIZZLEKIT_CLUSTER_N=2): 256x128 (-DSWIZZLEKIT_TILE_N=128), 4-5%
// faster where N is small against M or M against N (6731x1560x5304, 5810x11632x5008 on an
// H100, docs/data/bench/cutlass_probe/variants16_h100/), and 256x192 (-DSWIZZLEKIT_TILE_N=192),
// 4-8% faster than both at large grids (5810x11632x5008, 5491x5488x4880) and 30% slower at
// narrow ones (docs/data/bench/cutlass_probe/variants16b_h100/). The first call times all.
//
// Compiled by nvcc (CUTLASS's host adapter builds the TMA descriptors), by
// swizzlekit.kernels.cuda.cutlass.build; called through ctypes.
#include <cuda_runtime.h>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass_run.cuh"

using namespace cute;

using Element = SWIZZLEKIT_ELEMENT;
using RowMajorTag = cutlass::layout::RowMajor;
constexpr int kAlign = 8;                              // elements: 16-byte rows and pointers
#ifndef SWIZZLEKIT_TILE_M                              // the library's own tiles; another
#define SWIZZLEKIT_TILE_M 128                          // build (cutlass.TILES16) names its
#define SWIZZLEKIT_TILE_N 256                          // tile and cluster: 256x128 or 256x192
#define SWIZZLEKIT_CLUSTER_M 2                         // in pairs along N share A's tile
#define SWIZZLEKIT_CLUSTER_N 1
#endif
using TileShape = Shape<Int<SWIZZLEKIT_TILE_M>, Int<SWIZZLEKIT_TILE_N>, _64>;
using ClusterShape = Shape<Int<SWIZZLEKIT_CLUSTER_M>, Int<SWIZZLEKIT_CLUSTER_N>, _1>;

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    Element, RowMajorTag, kAlign, Element, RowMajorTag, kAlign,
    cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;

using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    Element, RowMajorTag, kAlign, Element, RowMajorTag, kAlign, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<
        static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;

using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

static typename Gemm::Arguments arguments(const void* A, const void* B, void* C, int M, int N,
                                          int K, long lda, long ldb, long ldc) {
  typename Kernel::StrideA sa{};                       // (lda, 1, 0): K contiguous
  typename Kernel::StrideB sb{};                       // (1, ldb, 0): N contiguous
  typename Kernel::StrideC sc{};                       // (ldc, 1, 0)
  get<0>(sa) = lda;
  get<1>(sb) = ldb;
  get<0>(sc) = ldc;
  return typename Gemm::Arguments{
      cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1},
      {static_cast<const Element*>(A), sa, static_cast<const Element*>(B), sb},
      {{1.0f, 0.0f}, static_cast<const Element*>(C), sc, static_cast<Element*>(C), sc},
      swizzlekit_hardware()};
}

// The workspace bytes a call of this shape needs.
extern "C" size_t swizzlekit_cutlass_workspace(int M, int N, int K) {
  return Gemm::get_workspace_size(arguments(nullptr, nullptr, nullptr, M, N, K, K, N, N));
}

// The GEMM on the current device's stream; returns cutlass_run.cuh's code.
extern "C" int swizzlekit_cutlass_gemm(const void* A, const void* B, void* C, int M, int N,
                                       int K, long lda, long ldb, long ldc, void* workspace,
                                       size_t workspace_bytes, cudaStream_t stream,
                                       int* cuda_error) {
  return swizzlekit_run<Gemm>(arguments(A, B, C, M, N, K, lda, ldb, ldc), workspace,
                              workspace_bytes, stream, cuda_error);
}
