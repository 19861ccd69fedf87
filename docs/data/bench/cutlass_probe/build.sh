#!/bin/bash
# Compile each variant of gemm.cu into OUT/gemm_V.so (sm_90a), with CUTLASS's headers from the
# nvidia-cutlass wheel (4.2.0.0). Usage: bash build.sh OUT [VARIANT ...]
set -e
OUT=$1; shift
D=$(python3 -c "import cutlass_library, os; print(os.path.dirname(cutlass_library.__file__))")/source
mkdir -p "$OUT"
for v in "${@:-0 1 2}"; do
  nvcc -std=c++17 -O3 -DNDEBUG -arch=sm_90a --expt-relaxed-constexpr -shared -Xcompiler -fPIC \
    -DVARIANT=$v -I"$D/include" -I"$D/tools/util/include" "$(dirname "$0")/gemm.cu" \
    -o "$OUT/gemm_$v.so" &
done
wait
ls -la "$OUT"
