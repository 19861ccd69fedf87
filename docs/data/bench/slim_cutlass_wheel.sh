#!/bin/bash
# The nvidia-cutlass 4.2.0.0 wheel without what no swizzlekit build reads (source/examples,
# tools/library, tools/profiler): 4.2 MB against 6.4, so that it travels to a device machine
# beside the tree within its 64 MiB. Its RECORD drops the removed files; CUTLASS's include/
# and tools/util/include stay whole. Usage: bash slim_cutlass_wheel.sh WHEEL OUT_DIR
set -e
WHEEL=$(realpath "$1"); OUT=$(realpath -m "$2")
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T" && unzip -q "$WHEEL"
rm -rf cutlass_library/source/examples cutlass_library/source/tools/library \
  cutlass_library/source/tools/profiler
R=$(ls -d nvidia_cutlass-*.dist-info)/RECORD
grep -v "cutlass_library/source/examples/\|cutlass_library/source/tools/library/\|cutlass_library/source/tools/profiler/" \
  "$R" > "$R.new" && mv "$R.new" "$R"
mkdir -p "$OUT" && zip -q -r -9 "$OUT/$(basename "$WHEEL")" .
ls -la "$OUT"
