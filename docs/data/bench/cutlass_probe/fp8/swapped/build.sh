#!/bin/bash
# Builds of swapped.cu: bash build.sh OUT_DIR TILE_M:CLUSTER_N:CLUSTER_M ...
# (e.g. 160:1:2), each OUT_DIR/m<TILE_M>_c<CLUSTER_N>x<CLUSTER_M>.so; nvcc 13.0 and
# CUTLASS 4.2.0's headers (python3 -m pip install --no-deps nvidia-cutlass==4.2.0.0), no GPU.
set -eu
out=$1; shift
include=$(python3 -c "from swizzlekit.kernels.cuda.cutlass import headers; print(headers()[0])")
here=$(dirname "$0")
mkdir -p "$out"
for v in "$@"; do
  IFS=: read -r m cn cm <<< "$v"
  nvcc -std=c++17 -O3 -DNDEBUG -arch=sm_90a --expt-relaxed-constexpr -shared -Xcompiler -fPIC \
    -I"$include" -DSWIZZLEKIT_TILE_M="$m" -DSWIZZLEKIT_CLUSTER_N="$cn" \
    -DSWIZZLEKIT_CLUSTER_M="$cm" "$here/swapped.cu" -o "$out/m${m}_c${cn}x${cm}.so"
done
