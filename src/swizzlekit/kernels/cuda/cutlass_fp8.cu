// CUTLASS's Hopper fp8 GEMM, D = (scale_a * scale_b) * (A B) in bf16, with A (M x K) e4m3
// row-major and B (K x N) e4m3 K-major (each column of B one contiguous row of Bt, the
// layout of torch._scaled_mm and swizzlekit's scaled_matmul), fp32 accumulation without
// periodic promotion (FP8FastAccum, as _scaled_mm's use_fast_accum).
//
// Warp-specialized (one producer warpgroup issuing TMA loads, two consumer warpgroups
// sharing each 128x256x128 tile's wgmma), persistent, in clusters of two CTAs along M that
// share each tile of B by TMA multicast, in whole tiles or stream-K (below):
//
//   cluster (2x1x1):   CTA 0 -> tile (m,   n)   A rows m*128..      Bt tile (n, k) <- half by
//                      CTA 1 -> tile (m+1, n)   A rows (m+1)*128..  each CTA, multicast to both
//
// Built with -DSWIZZLEKIT_SWAP_AB=1 it runs on D^T = Bt A^T instead: CUTLASS's M is our N
// (tiles of 128 columns) and its N our M, in tiles of SWIZZLEKIT_TILE_M rows (a multiple of
// 32 up to 256, wgmma's N), so that few rows of A are wasted where M is not near a multiple
// of 256 (302 rows: two tiles of 160, where pairs of 128-row tiles cover 512); D^T is written
// column-major, which is our row-major D. SWIZZLEKIT_CLUSTER_N x SWIZZLEKIT_CLUSTER_M CTAs a
// cluster (along our N x our M).
//
// The epilogue reads the two scales from the device (no launch to multiply them first) and
// no C:   D = cast<bf16>( (scale_a * scale_b) * acc )
//               Sm90Compute<multiplies>
//               /                  \
//   Sm90ScalarBroadcast x2       Sm90AccFetch
//   (scale_a_ptr, scale_b_ptr)
//
// Compiled by nvcc by swizzlekit.kernels.cuda.cutlass_fp8.build; called through ctypes.
#include <cuda_runtime.h>

#include <utility>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/fusion/sm90_callbacks_tma_warpspecialized.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass_run.cuh"

using namespace cute;
namespace fusion = cutlass::epilogue::fusion;

using ElementAB = cutlass::float_e4m3_t;
using ElementD = cutlass::bfloat16_t;
constexpr int kAlignAB = 16;                           // elements: 16-byte rows and pointers
constexpr int kAlignD = 8;
#ifndef SWIZZLEKIT_TILE_N                              // the library: 256; probes build
#define SWIZZLEKIT_TILE_N 256                          // other widths (-DSWIZZLEKIT_TILE_N=192)
#endif
#if SWIZZLEKIT_SWAP_AB
#if !defined(SWIZZLEKIT_TILE_M) || !defined(SWIZZLEKIT_CLUSTER_N) || !defined(SWIZZLEKIT_CLUSTER_M)
#error "a swapped build names its tile and cluster (SWIZZLEKIT_TILE_M, _CLUSTER_N, _CLUSTER_M)"
#endif
using TileShape = Shape<_128, Int<SWIZZLEKIT_TILE_M>, _128>;      // CUTLASS's M N K
using ClusterShape = Shape<Int<SWIZZLEKIT_CLUSTER_N>, Int<SWIZZLEKIT_CLUSTER_M>, _1>;
using LayoutD = cutlass::layout::ColumnMajor;                     // D^T
#else
using TileShape = Shape<_128, Int<SWIZZLEKIT_TILE_N>, _128>;
using ClusterShape = Shape<_2, _1, _1>;
using LayoutD = cutlass::layout::RowMajor;
#endif

using Scales = fusion::Sm90ScalarBroadcast<float, Stride<_0, _0, int64_t>, 2>;
using ScaledAcc = fusion::Sm90EVT<
    fusion::Sm90Compute<cutlass::multiplies, ElementD, float,
                        cutlass::FloatRoundStyle::round_to_nearest>,
    Scales, fusion::Sm90AccFetch>;

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    void, LayoutD, kAlignD, ElementD, LayoutD, kAlignD,
    cutlass::epilogue::TmaWarpSpecializedCooperative, ScaledAcc>::CollectiveOp;

using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    ElementAB, cutlass::layout::RowMajor, kAlignAB, ElementAB, cutlass::layout::ColumnMajor,
    kAlignAB, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<
        static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum>::CollectiveOp;

// Two schedules of the same mainloop and epilogue: whole tiles (data-parallel, CUTLASS's
// persistent default), or stream-K: every tile's K steps dealt out evenly over one wave of
// CTAs, partial sums added through the workspace (what fills the SMs where the tiles do not).
using GemmDataParallel = cutlass::gemm::device::GemmUniversalAdapter<
    cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>>;
using GemmStreamK = cutlass::gemm::device::GemmUniversalAdapter<
    cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue,
                                         cutlass::gemm::StreamKScheduler>>;
using StreamKMode =
    cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90StreamKParams::DecompositionMode;

template <class Gemm>
static typename Gemm::Arguments arguments(const void* A, const void* Bt, void* D,
                                          const float* scale_a, const float* scale_b, int M,
                                          int N, int K, long lda, long ldb, long ldd) {
  using Kernel = typename Gemm::GemmKernel;
  typename Kernel::StrideA sa{};                       // (lda, 1, 0): K contiguous
  typename Kernel::StrideB sb{};                       // (ldb, 1, 0): K contiguous (Bt's rows)
  typename Kernel::StrideD sd{};                       // (ldd, 1, 0); swapped (1, ldd, 0)
#if SWIZZLEKIT_SWAP_AB
  get<0>(sa) = ldb;                                    // CUTLASS's A: Bt (N x K)
  get<0>(sb) = lda;                                    // CUTLASS's B: A^T (K x M), K-major
  get<1>(sd) = ldd;
  std::swap(M, N);
  std::swap(A, Bt);
#else
  get<0>(sa) = lda;
  get<0>(sb) = ldb;
  get<0>(sd) = ldd;
#endif
  typename Gemm::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1},
      {static_cast<const ElementAB*>(A), sa, static_cast<const ElementAB*>(Bt), sb},
      {{}, nullptr, {}, static_cast<ElementD*>(D), sd}, swizzlekit_hardware()};
  // EVT arguments, children first: {the scales' broadcast, the accumulator, the multiply}
  args.epilogue.thread = {{{1.0f, 1.0f}, {scale_a, scale_b}, {}}, {}, {}};
  if constexpr (std::is_same_v<Gemm, GemmStreamK>) {
    args.scheduler.decomposition_mode = StreamKMode::StreamK;   // not CUTLASS's heuristic,
  }                                                             // which keeps whole tiles
  return args;                                                  // wherever a wave is half full
}

// The workspace bytes a call of this shape needs (stream_k: the stream-K schedule's).
extern "C" size_t swizzlekit_cutlass_fp8_workspace(int M, int N, int K, int stream_k) {
  return stream_k ? GemmStreamK::get_workspace_size(arguments<GemmStreamK>(
                        nullptr, nullptr, nullptr, nullptr, nullptr, M, N, K, K, K, N))
                  : GemmDataParallel::get_workspace_size(arguments<GemmDataParallel>(
                        nullptr, nullptr, nullptr, nullptr, nullptr, M, N, K, K, K, N));
}

// The GEMM on the current device's stream, in stream-K where stream_k; returns
// cutlass_run.cuh's code.
extern "C" int swizzlekit_cutlass_fp8_gemm(const void* A, const void* Bt, void* D,
                                           const float* scale_a, const float* scale_b, int M,
                                           int N, int K, long lda, long ldb, long ldd,
                                           int stream_k, void* workspace,
                                           size_t workspace_bytes, cudaStream_t stream,
                                           int* cuda_error) {
  return stream_k ? swizzlekit_run<GemmStreamK>(
                        arguments<GemmStreamK>(A, Bt, D, scale_a, scale_b, M, N, K, lda, ldb,
                                               ldd),
                        workspace, workspace_bytes, stream, cuda_error)
                  : swizzlekit_run<GemmDataParallel>(
                        arguments<GemmDataParallel>(A, Bt, D, scale_a, scale_b, M, N, K, lda,
                                                    ldb, ldd),
                        workspace, workspace_bytes, stream, cuda_error);
}
