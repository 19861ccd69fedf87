// What both CUTLASS libraries (cutlass_gemm.cu, cutlass_fp8.cu) do around their kernels:
// the device's SM count for CUTLASS's persistent scheduler, and one GEMM's run through
// CUTLASS's device adapter, its outcome as the code the Python side reads
// (swizzlekit.kernels.cuda.cutlass.CODES):
//
//   0  launched                          3  its initialization failed
//   1  CUTLASS cannot run these arguments  4  the launch failed (cudaGetLastError's code
//   2  the workspace is too small             in *cuda_error)
//
// Included by both .cu files; swizzlekit.kernels.cuda.cutlass.compile_library hashes it
// with the source, so a change here rebuilds both.
#pragma once
#include <cuda_runtime.h>

#include "cutlass/cutlass.h"
#include "cutlass/kernel_hardware_info.h"

// The current device and its SM count (CUTLASS's persistent tile scheduler sizes its grid
// by it).
inline cutlass::KernelHardwareInfo swizzlekit_hardware() {
  cutlass::KernelHardwareInfo hw;
  cudaGetDevice(&hw.device_id);
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(hw.device_id);
  return hw;
}

// One run of Gemm (a GemmUniversalAdapter) on args: checked, workspace sized, initialized
// (TMA descriptors encoded, stream-K's workspace cleared) and launched on stream.
template <class Gemm>
int swizzlekit_run(typename Gemm::Arguments const& args, void* workspace,
                   size_t workspace_bytes, cudaStream_t stream, int* cuda_error) {
  Gemm gemm;
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) return 1;
  if (Gemm::get_workspace_size(args) > workspace_bytes) return 2;
  if (gemm.initialize(args, workspace, stream) != cutlass::Status::kSuccess) return 3;
  cutlass::Status status = gemm.run(stream);
  *cuda_error = static_cast<int>(cudaGetLastError());
  return status == cutlass::Status::kSuccess && *cuda_error == 0 ? 0 : 4;
}
