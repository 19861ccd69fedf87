// A probe, not the library: CUTLASS's Hopper fp8 GEMM, D = (sa * sb) * (A B) in bf16, A
// (M x K, e4m3) row-major and B (K x N, e4m3) K-major (torch._scaled_mm's layout), fp32
// accumulation without periodic promotion (FP8FastAccum, as _scaled_mm's use_fast_accum), in
// clusters of two CTAs along M sharing B's tiles. sa and sb are one fp32 each, on the device;
// their product is alpha (alpha_ptr). VARIANT picks the tile.
#include <cuda_runtime.h>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

using namespace cute;

#ifndef VARIANT
#define VARIANT 0
#endif
#if VARIANT == 0
using TileShape = Shape<_128, _256, _128>;
#else
using TileShape = Shape<_128, _128, _128>;
#endif
using ClusterShape = Shape<_2, _1, _1>;
using ElementAB = cutlass::float_e4m3_t;
using ElementD = cutlass::bfloat16_t;

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    ElementD, cutlass::layout::RowMajor, 8, ElementD, cutlass::layout::RowMajor, 8,
    cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;

using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    ElementAB, cutlass::layout::RowMajor, 16, ElementAB, cutlass::layout::ColumnMajor, 16, float,
    TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<
        static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum>::CollectiveOp;

using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

// A: M x K, rows lda apart; B: K x N K-major (column j at B + j * ldb); D: M x N, rows ldd apart;
// alpha: one fp32 on the device (sa * sb).
extern "C" int probe_fp8_gemm(const void* A, const void* B, void* D, const float* alpha, int M,
                              int N, int K, long lda, long ldb, long ldd, void* workspace,
                              size_t workspace_bytes, cudaStream_t stream) {
  typename Kernel::StrideA sa{};
  typename Kernel::StrideB sb{};
  typename Kernel::StrideC sc{};
  get<0>(sa) = lda;
  get<0>(sb) = ldb;
  get<0>(sc) = ldd;
  cutlass::KernelHardwareInfo hw;
  cudaGetDevice(&hw.device_id);
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(hw.device_id);
  typename Gemm::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1},
      {static_cast<const ElementAB*>(A), sa, static_cast<const ElementAB*>(B), sb},
      {{}, static_cast<const ElementD*>(D), sc, static_cast<ElementD*>(D), sc}, hw};
  args.epilogue.thread.alpha_ptr = alpha;
  args.epilogue.thread.beta = 0.0f;
  Gemm gemm;
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) return 1;
  if (Gemm::get_workspace_size(args) > workspace_bytes) return 2;
  if (gemm.initialize(args, workspace, stream) != cutlass::Status::kSuccess) return 3;
  return gemm.run(stream) == cutlass::Status::kSuccess ? 0 : 4;
}
