#!/bin/bash
# Swapped builds of the library's cutlass_fp8.cu (-DSWIZZLEKIT_SWAP_AB=1):
#   bash build.sh OUT_DIR TILE_M:CLUSTER_N:CLUSTER_M ...   (e.g. 160:1:2; CUTLASS's M is our N)
# each OUT_DIR/m<TILE_M>_c<CLUSTER_N>x<CLUSTER_M>.so; nvcc 13.0 and CUTLASS 4.2.0's headers
# (python3 -m pip install --no-deps nvidia-cutlass==4.2.0.0), no GPU. Run from the repository.
set -eu
out=$1; shift
include=$(python3 -c "from swizzlekit.kernels.cuda.cutlass import headers; print(headers()[0])")
mkdir -p "$out"
for v in "$@"; do
  IFS=: read -r m cn cm <<< "$v"
  nvcc -std=c++17 -O3 -DNDEBUG -arch=sm_90a --expt-relaxed-constexpr -shared -Xcompiler -fPIC \
    -I"$include" -DSWIZZLEKIT_TILE_M="$m" -DSWIZZLEKIT_CLUSTER_N="$cn" \
    -DSWIZZLEKIT_CLUSTER_M="$cm" -DSWIZZLEKIT_SWAP_AB=1 \
    src/swizzlekit/kernels/cuda/cutlass_fp8.cu -o "$out/m${m}_c${cn}x${cm}.so"
done
