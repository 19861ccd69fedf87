// The probe's build of CUTLASS's Hopper fp8 GEMM (variants.py; -D flags below pick the tile,
// cluster and schedule), as src/swizzlekit/kernels/cuda/cutlass_fp8.cu was before it held both
// schedules in one library: D = (scale_a * scale_b) * (A B) in bf16, with A (M x K) e4m3
// row-major and B (K x N) e4m3 K-major (each column of B one contiguous row of Bt, the
// layout of torch._scaled_mm and swizzlekit's scaled_matmul), fp32 accumulation without
// periodic promotion (FP8FastAccum, as _scaled_mm's use_fast_accum).
//
// Warp-specialized (one producer warpgroup issuing TMA loads, two consumer warpgroups
// sharing each 128x256x128 tile's wgmma), persistent, in clusters of two CTAs along M that
// share each tile of B by TMA multicast:
//
//   cluster (2x1x1):   CTA 0 -> tile (m,   n)   A rows m*128..      Bt tile (n, k) <- half by
//                      CTA 1 -> tile (m+1, n)   A rows (m+1)*128..  each CTA, multicast to both
//
// The epilogue reads the two scales from the device (no launch to multiply them first) and
// no C:   D = cast<bf16>( (scale_a * scale_b) * acc )
//               Sm90Compute<multiplies>
//               /                  \
//   Sm90ScalarBroadcast x2       Sm90AccFetch
//   (scale_a_ptr, scale_b_ptr)
//
// Built by hand: nvcc -std=c++17 -O3 -DNDEBUG -arch=sm_90a --expt-relaxed-constexpr -shared
// -Xcompiler -fPIC -I<nvidia-cutlass 4.2.0.0's include> [-D...] variants.cu -o NAME.so
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
#ifndef SWIZZLEKIT_TILE_N                              // -DSWIZZLEKIT_TILE_N=128
#define SWIZZLEKIT_TILE_N 256
#endif
#ifndef SWIZZLEKIT_CLUSTER_M                           // -DSWIZZLEKIT_CLUSTER_M=1
#define SWIZZLEKIT_CLUSTER_M 2
#endif
using TileShape = Shape<_128, Int<SWIZZLEKIT_TILE_N>, _128>;
using ClusterShape = Shape<Int<SWIZZLEKIT_CLUSTER_M>, _1, _1>;
#ifdef SWIZZLEKIT_STREAM_K                             // CUTLASS's stream-K scheduler
using Scheduler = cutlass::gemm::StreamKScheduler;
#else
using Scheduler = void;
#endif

using Scales = fusion::Sm90ScalarBroadcast<float, Stride<_0, _0, int64_t>, 2>;
using ScaledAcc = fusion::Sm90EVT<
    fusion::Sm90Compute<cutlass::multiplies, ElementD, float,
                        cutlass::FloatRoundStyle::round_to_nearest>,
    Scales, fusion::Sm90AccFetch>;

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    void, cutlass::layout::RowMajor, kAlignD, ElementD, cutlass::layout::RowMajor, kAlignD,
    cutlass::epilogue::TmaWarpSpecializedCooperative, ScaledAcc>::CollectiveOp;

using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    ElementAB, cutlass::layout::RowMajor, kAlignAB, ElementAB, cutlass::layout::ColumnMajor,
    kAlignAB, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<
        static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum>::CollectiveOp;

using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue,
                                                    Scheduler>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

static typename Gemm::Arguments arguments(const void* A, const void* Bt, void* D,
                                          const float* scale_a, const float* scale_b, int M,
                                          int N, int K, long lda, long ldb, long ldd) {
  typename Kernel::StrideA sa{};
  typename Kernel::StrideB sb{};
  typename Kernel::StrideD sd{};
  get<0>(sa) = lda;
  get<0>(sb) = ldb;
  get<0>(sd) = ldd;
  cutlass::KernelHardwareInfo hw;
  cudaGetDevice(&hw.device_id);
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(hw.device_id);
  typename Gemm::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1},
      {static_cast<const ElementAB*>(A), sa, static_cast<const ElementAB*>(Bt), sb},
      {{}, nullptr, {}, static_cast<ElementD*>(D), sd}, hw};
  args.epilogue.thread = {{{1.0f, 1.0f}, {scale_a, scale_b}, {}}, {}, {}};
#ifdef SWIZZLEKIT_STREAM_K_FORCE                       // stream-K, not CUTLASS's heuristic
  args.scheduler.decomposition_mode =
      cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90StreamKParams::DecompositionMode::StreamK;
#endif
  return args;
}

extern "C" size_t swizzlekit_cutlass_fp8_workspace(int M, int N, int K) {
  return Gemm::get_workspace_size(
      arguments(nullptr, nullptr, nullptr, nullptr, nullptr, M, N, K, K, K, N));
}

extern "C" int swizzlekit_cutlass_fp8_gemm(const void* A, const void* Bt, void* D,
                                           const float* scale_a, const float* scale_b, int M,
                                           int N, int K, long lda, long ldb, long ldd,
                                           void* workspace, size_t workspace_bytes,
                                           cudaStream_t stream, int* cuda_error) {
  auto args = arguments(A, Bt, D, scale_a, scale_b, M, N, K, lda, ldb, ldd);
  Gemm gemm;
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) return 1;
  if (Gemm::get_workspace_size(args) > workspace_bytes) return 2;
  if (gemm.initialize(args, workspace, stream) != cutlass::Status::kSuccess) return 3;
  cutlass::Status status = gemm.run(stream);
  *cuda_error = static_cast<int>(cudaGetLastError());
  return status == cutlass::Status::kSuccess && *cuda_error == 0 ? 0 : 4;
}
