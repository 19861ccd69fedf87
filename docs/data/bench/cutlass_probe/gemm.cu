// A probe, not the library: CUTLASS's Hopper GEMM (warp-specialized, TMA, optional clusters
// of CTAs sharing operand tiles by TMA multicast), C = A B in bf16 with fp32 accumulation,
// all three row-major, to measure what clusters do on a B whose rows are not 64-byte aligned
// (3000x5000x4000), where Triton 3.6 gives the library's kernel no clusters.
// VARIANT (compile-time) picks the tile, the cluster and the schedule; one .so a variant.
#include <cuda_runtime.h>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

using namespace cute;

#ifndef VARIANT
#define VARIANT 0
#endif
#if VARIANT == 0      // 128x256x64, clusters of 2 along M (B shared), cooperative
using TileShape = Shape<_128, _256, _64>;
using ClusterShape = Shape<_2, _1, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#elif VARIANT == 1    // the same without clusters
using TileShape = Shape<_128, _256, _64>;
using ClusterShape = Shape<_1, _1, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#elif VARIANT == 2    // 128x128x64 ping-pong, clusters of 2 along M
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_2, _1, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecialized;
#elif VARIANT == 3    // 256x128x64, clusters of 2 along N (A shared), cooperative
using TileShape = Shape<_256, _128, _64>;
using ClusterShape = Shape<_1, _2, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#elif VARIANT == 4    // variant 0 in stream-K: every tile's K steps dealt out over one wave
using TileShape = Shape<_128, _256, _64>;
using ClusterShape = Shape<_2, _1, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#define STREAM_K 1
#elif VARIANT == 5    // 128x128x64, clusters of 2 along M (B shared), cooperative
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_2, _1, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#elif VARIANT == 6    // 256x128x64, clusters of 2 along M (B shared), cooperative
using TileShape = Shape<_256, _128, _64>;
using ClusterShape = Shape<_2, _1, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#elif VARIANT == 7    // 128x192x64, clusters of 2 along M (B shared), cooperative: nvjet's
using TileShape = Shape<_128, _192, _64>;                 // widths are 192 and 208
using ClusterShape = Shape<_2, _1, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#elif VARIANT == 8    // 256x192x64, clusters of 2 along N (A shared), cooperative
using TileShape = Shape<_256, _192, _64>;
using ClusterShape = Shape<_1, _2, _1>;
using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpiSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#endif
#ifdef STREAM_K
using Scheduler = cutlass::gemm::StreamKScheduler;
#else
using Scheduler = void;
#endif

using Element = cutlass::bfloat16_t;
using RowMajorTag = cutlass::layout::RowMajor;
constexpr int kAlign = 8;

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    Element, RowMajorTag, kAlign, Element, RowMajorTag, kAlign, EpiSchedule>::CollectiveOp;

using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    Element, RowMajorTag, kAlign, Element, RowMajorTag, kAlign, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<
        static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    Schedule>::CollectiveOp;

using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue,
                                                   Scheduler>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

extern "C" int probe_gemm(const void* A, const void* B, void* C, int M, int N, int K,
                          void* workspace, size_t workspace_bytes, cudaStream_t stream) {
  auto sa = cutlass::make_cute_packed_stride(typename Kernel::StrideA{}, {M, K, 1});
  auto sb = cutlass::make_cute_packed_stride(typename Kernel::StrideB{}, {N, K, 1});
  auto sc = cutlass::make_cute_packed_stride(typename Kernel::StrideC{}, {M, N, 1});
  auto sd = cutlass::make_cute_packed_stride(typename Kernel::StrideD{}, {M, N, 1});
  cutlass::KernelHardwareInfo hw;
  hw.device_id = 0;
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(0);
  typename Gemm::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1},
      {static_cast<const Element*>(A), sa, static_cast<const Element*>(B), sb},
      {{1.0f, 0.0f}, static_cast<const Element*>(C), sc, static_cast<Element*>(C), sd}, hw};
#ifdef STREAM_K             // forced: CUTLASS's heuristic keeps whole tiles where a wave is
  args.scheduler.decomposition_mode =           // half full
      cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90StreamKParams::DecompositionMode::
          StreamK;
#endif
  Gemm gemm;
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) return 1;
  if (Gemm::get_workspace_size(args) > workspace_bytes) return 2;
  if (gemm.initialize(args, workspace, stream) != cutlass::Status::kSuccess) return 3;
  return gemm.run(stream) == cutlass::Status::kSuccess ? 0 : 4;
}
