// A probe: the library's cutlass_fp8.cu with A and B swapped. CUTLASS computes D^T = Bt A^T,
// so that its M is our N (tiles of 128 along N) and its N is our M, in tiles of
// SWIZZLEKIT_TILE_M rows (any multiple of 32 up to 256: wgmma's N), chosen so that few rows
// of the last tile are wasted (302 rows: two tiles of 160, not three of 128 in clusters of
// two, which pad to 512). D^T is written column-major, which is our row-major D. Clusters of
// SWIZZLEKIT_CLUSTER_N x SWIZZLEKIT_CLUSTER_M CTAs (CUTLASS's M x N). The entry points take
// the library's arguments, so variants.py --two-schedules loads these builds unchanged.
#include <cuda_runtime.h>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/fusion/sm90_callbacks_tma_warpspecialized.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

using namespace cute;
namespace fusion = cutlass::epilogue::fusion;

using ElementAB = cutlass::float_e4m3_t;
using ElementD = cutlass::bfloat16_t;
constexpr int kAlignAB = 16;                           // elements: 16-byte rows and pointers
constexpr int kAlignD = 8;
#ifndef SWIZZLEKIT_TILE_M
#define SWIZZLEKIT_TILE_M 160
#endif
#ifndef SWIZZLEKIT_CLUSTER_N
#define SWIZZLEKIT_CLUSTER_N 1
#endif
#ifndef SWIZZLEKIT_CLUSTER_M
#define SWIZZLEKIT_CLUSTER_M 2
#endif
using TileShape = Shape<_128, Int<SWIZZLEKIT_TILE_M>, _128>;     // CUTLASS's M N K
using ClusterShape = Shape<Int<SWIZZLEKIT_CLUSTER_N>, Int<SWIZZLEKIT_CLUSTER_M>, _1>;

using Scales = fusion::Sm90ScalarBroadcast<float, Stride<_0, _0, int64_t>, 2>;
using ScaledAcc = fusion::Sm90EVT<
    fusion::Sm90Compute<cutlass::multiplies, ElementD, float,
                        cutlass::FloatRoundStyle::round_to_nearest>,
    Scales, fusion::Sm90AccFetch>;

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    void, cutlass::layout::ColumnMajor, kAlignD, ElementD, cutlass::layout::ColumnMajor, kAlignD,
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
  typename Kernel::StrideD sd{};                       // (1, ldd, 0): D^T column-major
  get<0>(sa) = ldb;                                    // CUTLASS's A: Bt (N x K)
  get<0>(sb) = lda;                                    // CUTLASS's B: A^T (K x M), K-major
  get<1>(sd) = ldd;
  cutlass::KernelHardwareInfo hw;
  cudaGetDevice(&hw.device_id);
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(hw.device_id);
  typename Gemm::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm, {N, M, K, 1},
      {static_cast<const ElementAB*>(Bt), sa, static_cast<const ElementAB*>(A), sb},
      {{}, nullptr, {}, static_cast<ElementD*>(D), sd}, hw};
  // EVT arguments, children first: {the scales' broadcast, the accumulator, the multiply}
  args.epilogue.thread = {{{1.0f, 1.0f}, {scale_a, scale_b}, {}}, {}, {}};
  if constexpr (std::is_same_v<Gemm, GemmStreamK>) {
    args.scheduler.decomposition_mode = StreamKMode::StreamK;   // not CUTLASS's heuristic,
  }                                                             // which keeps whole tiles
  return args;                                                  // wherever a wave is half full
}

template <class Gemm>
static int run(const void* A, const void* Bt, void* D, const float* scale_a,
               const float* scale_b, int M, int N, int K, long lda, long ldb, long ldd,
               void* workspace, size_t workspace_bytes, cudaStream_t stream, int* cuda_error) {
  auto args = arguments<Gemm>(A, Bt, D, scale_a, scale_b, M, N, K, lda, ldb, ldd);
  Gemm gemm;
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) return 1;
  if (Gemm::get_workspace_size(args) > workspace_bytes) return 2;
  if (gemm.initialize(args, workspace, stream) != cutlass::Status::kSuccess) return 3;
  cutlass::Status status = gemm.run(stream);
  *cuda_error = static_cast<int>(cudaGetLastError());
  return status == cutlass::Status::kSuccess && *cuda_error == 0 ? 0 : 4;
}

// The workspace bytes a call of this shape needs (stream_k: the stream-K schedule's).
extern "C" size_t swizzlekit_cutlass_fp8_workspace(int M, int N, int K, int stream_k) {
  return stream_k ? GemmStreamK::get_workspace_size(arguments<GemmStreamK>(
                        nullptr, nullptr, nullptr, nullptr, nullptr, M, N, K, K, K, N))
                  : GemmDataParallel::get_workspace_size(arguments<GemmDataParallel>(
                        nullptr, nullptr, nullptr, nullptr, nullptr, M, N, K, K, K, N));
}

// 0: launched; 1: CUTLASS cannot run these arguments; 2: workspace too small; 3: its
// initialization failed; 4: the launch failed (cudaGetLastError's code in *cuda_error).
extern "C" int swizzlekit_cutlass_fp8_gemm(const void* A, const void* Bt, void* D,
                                           const float* scale_a, const float* scale_b, int M,
                                           int N, int K, long lda, long ldb, long ldd,
                                           int stream_k, void* workspace,
                                           size_t workspace_bytes, cudaStream_t stream,
                                           int* cuda_error) {
  return (stream_k ? run<GemmStreamK> : run<GemmDataParallel>)(
      A, Bt, D, scale_a, scale_b, M, N, K, lda, ldb, ldd, workspace, workspace_bytes, stream,
      cuda_error);
}
