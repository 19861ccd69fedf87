#!/bin/bash
# The checks a card that has not run this tree owes it (the H200 since commit 87f9b13), part
# by part, with the code of the tree sent; each part's output under OUT/PART.
# Usage: bash docs/data/bench/run_card_checks.sh OUT PART [PART ...]
#   tier     the GPU tier and lab sanitize (.ci/gpu; about 150 + 95 s on a fresh machine)
#   tf32     TF32 over the full suite (run_tf32.sh; about 120 s)
#   rule     where TF32's K-major copy of B pays (tf32_copy/rule_regs.py; about 75 s);
#            then `python3 docs/data/bench/tf32_copy/fit.py DIR PRESET` here, no GPU
#   heldout  composite tiles held out, both sets (composite/heldout.py; about 60 s each)
#   wave     the wave-edge suite in bf16 (about 30 s)
#   tail     the tail split on and off, the probe's and the held-out shapes
#            (tail_aligned/library.py; about 50 + 40 s on the H100)
#   fp8tail  the fp8 tail split against the plain plan (fp8_tail/probe.py; stopped at 200 s)
#   split    the swapped 256x128 TF32 tile forced past the prune into the one-tile path, K
#            split 1 and 2 ways, C by TMA and by masked stores (split_one_tile/probe.py
#            one_tile one_tile_c_ptr; 109 s on the H100, compiles included), then each
#            variant once under racecheck and once plainly (racecheck.py; about 60 s)
#   regs     TF32's C from registers forced against the autotuned plan at the 2048-row and
#            `full` shapes (tf32_2048/probe.py; 85 s on the H200, 110 s on the H100), then the
#            GPU tests of C from registers by the rule and below it (about 40 s)
#   orders   the library's GEMM under row, column, grouped(8) and grouped(16), bf16 then fp8
#            (order_tiebreak/probe.py; bf16 took 190 s on the H100; each stopped after the
#            shape that passes 250 s)
#   bf16 fp16 fp8  that precision over the full suite with the tutorial-style baseline
#            (`swizzlekit bench --suite full --kernel triton --kernel triton_baseline`; about
#            250 s each on a warm H100), into OUT/P.tgz
#   ragged   the ragged-pairs suite in bf16 (`swizzlekit bench --suite ragged-pairs --precision
#            bf16 --kernel triton`; about 190 s on the H100), into OUT/ragged.tgz
#   report   `swizzlekit report --measure` on this card's preset (h100-sxm or h200, by
#            nvidia-smi's name; about 210 s on a fresh machine), into OUT/report.tgz
#   narrow   TF32 on outputs of at most 512 columns from 2048 rows, C from registers forced
#            against the autotuned plan (tf32_2048/probe.py narrow narrow_heldout; untimed)
#   claims   the order tables' claims set, three passes of 9 Williams replicates
#            (docs/data/order_times/retime.sh; about 120 s a pass on the H100), into
#            OUT/claims.tgz; then `python3 docs/data/order_times/pool.py DIR CARD claims` here
#   cutlass  both CUTLASS GPU test files (tests/gpu/test_cutlass*_gpu.py; about 90 s with the
#            libraries cached); then scaled_matmul's CUTLASS route, five candidates, on two
#            sets drawn for it: ten shapes in the swapped rows (seed 20261132) and ten over
#            the route's rows (20261133) (cutlass_probe/fp8/heldout/route.py; about 100 s each);
#            then matmul's 16-bit route, four candidates, on ten bf16 shapes with B's rows
#            misaligned (seed 20261135, drawn after its 256x192 build joined;
#            cutlass_probe/heldout_h100/route16.py; about 130 s);
#            each route's log holds its first calls' picks (SWIZZLEKIT_PRINT_PICKS=1)
# CUTLASS's libraries: where build/carry/so.txz (the cache, tar'd from build/sk2: eleven
# libraries) and the nvidia-cutlass wheel in .whl/ or build/whlslim/ (slim_cutlass_wheel.sh,
# which leaves room in the 64 MiB a call carries) were carried, they are unpacked and
# installed first, and SWIZZLEKIT_CACHE points at them, so no part builds with nvcc.
# A device call of 600 s takes `tier` alone, or `tf32 rule heldout wave` together, or
# `heldout wave tail`, or `orders`, or `split tf32`, or `regs tf32`, or one of `bf16`, `fp16`,
# `fp8`, each with `ragged` or without, or `report`, or `cutlass` (about 450 s). The device
# returns at most 8 files a call: tar OUT into one file before the call ends.
set -u
OUT=$1
shift
mkdir -p "$OUT"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
for w in .whl/nvidia_cutlass-*.whl build/whlslim/nvidia_cutlass-*.whl; do
  [ -f "$w" ] && python3 -m pip install -q --no-deps "$w" > /dev/null 2>&1
done
for t in build/carry/*.txz; do [ -f "$t" ] && tar xJf "$t"; done
[ -d build/sk2/cutlass ] && export SWIZZLEKIT_CACHE=$PWD/build/sk2
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > "$OUT/gpu.txt"
export PYTHONUNBUFFERED=1
for part in "$@"; do
  case $part in
    tier) TIER_LIMIT=330 bash .ci/gpu "$OUT/tier" > "$OUT/tier.log" 2>&1; tail -n 2 "$OUT/tier/gpu.txt" ;;
    tf32) bash docs/data/bench/run_tf32.sh "$OUT" ;;
    rule) timeout 200 python3 docs/data/bench/tf32_copy/rule_regs.py "$OUT/rule" > "$OUT/rule.txt" 2>&1
          tail -n 2 "$OUT/rule.txt" ;;
    heldout) timeout 150 python3 docs/data/bench/composite/heldout.py "$OUT/heldout.jsonl" > "$OUT/heldout.txt" 2>&1
             timeout 150 python3 docs/data/bench/composite/heldout.py "$OUT/heldout2.jsonl" second > "$OUT/heldout2.txt" 2>&1
             tail -n 2 "$OUT/heldout.txt" "$OUT/heldout2.txt" ;;
    wave) timeout 150 swizzlekit bench --suite wave-edge --precision bf16 --kernel triton \
            --kernel triton_baseline --out "$OUT/wave" > "$OUT/wave.log" 2>&1; tail -n 2 "$OUT/wave.log" ;;
    tail) for set in probe heldout; do
            timeout 250 python3 docs/data/bench/tail_aligned/library.py "$OUT/tail_$set.jsonl" $set \
              > "$OUT/tail_$set.txt" 2>&1; tail -n 3 "$OUT/tail_$set.txt"
          done ;;
    fp8tail) timeout 200 python3 docs/data/bench/fp8_tail/probe.py "$OUT/fp8_tail.jsonl" \
               > "$OUT/fp8_tail.txt" 2>&1; tail -n 3 "$OUT/fp8_tail.txt" ;;
    split) timeout 200 python3 docs/data/bench/split_one_tile/probe.py "$OUT/split_one_tile.jsonl" \
             one_tile one_tile_c_ptr > "$OUT/split_one_tile.txt" 2>&1
           tail -n 3 "$OUT/split_one_tile.txt" | cut -c1-200
           sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
           for v in shipped masked split; do
             timeout 55 "$sanitizer" --tool racecheck --report-api-errors no python3 \
               docs/data/bench/split_one_tile/racecheck.py $v > "$OUT/racecheck_$v.log" 2>&1
             timeout 30 python3 docs/data/bench/split_one_tile/racecheck.py $v 2>&1 | tail -n 1 \
               | sed 's/config.*maxnreg: None, //' >> "$OUT/racecheck_plain.txt"
           done
           grep -h "SUMMARY" "$OUT"/racecheck_*.log; cat "$OUT/racecheck_plain.txt" ;;
    regs) timeout 250 python3 docs/data/bench/tf32_2048/probe.py "$OUT/regs.jsonl" 2048 full \
            > "$OUT/regs.txt" 2>&1; tail -n 3 "$OUT/regs.txt" | cut -c1-300
          SWIZZLEKIT_AUTOTUNE=0 timeout 200 python3 -m pytest -q -p no:cacheprovider \
            tests/gpu/test_c_regs_gpu.py "tests/gpu/test_matmul_gpu.py::test_ragged_repeat_calls_route_through_fresh_copies" \
            > "$OUT/regs_tests.txt" 2>&1; tail -n 2 "$OUT/regs_tests.txt" ;;
    orders) for precision in bf16 fp8; do
              timeout 280 python3 docs/data/bench/order_tiebreak/probe.py \
                "$OUT/orders_$precision.jsonl" 250 $precision > "$OUT/orders_$precision.txt" 2>&1
              tail -n 2 "$OUT/orders_$precision.txt"
            done ;;
    bf16|fp16|fp8)
          timeout 520 swizzlekit bench --suite full --precision $part --kernel triton \
            --kernel triton_baseline --out "$OUT/$part" > "$OUT/$part.log" 2>&1
          tail -n 3 "$OUT/$part.log"; mv "$OUT/$part.log" "$OUT/$part/"
          (cd "$OUT" && tar czf "$part.tgz" "$part" && rm -rf "$part") ;;
    ragged) timeout 300 swizzlekit bench --suite ragged-pairs --precision bf16 --kernel triton \
              --out "$OUT/ragged" > "$OUT/ragged.log" 2>&1
            tail -n 3 "$OUT/ragged.log"; mv "$OUT/ragged.log" "$OUT/ragged/"
            (cd "$OUT" && tar czf ragged.tgz ragged && rm -rf ragged) ;;
    report) preset=h200; grep -q H100 "$OUT/gpu.txt" && preset=h100-sxm
          timeout 480 swizzlekit report --measure --gpu $preset --out "$OUT/report" \
            > "$OUT/report.log" 2>&1
          tail -n 8 "$OUT/report.log"; mv "$OUT/report.log" "$OUT/report/"
          (cd "$OUT" && tar czf report.tgz report && rm -rf report) ;;
    cutlass) timeout 200 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_cutlass_gpu.py \
               tests/gpu/test_cutlass_fp8_gpu.py > "$OUT/cutlass_tests.txt" 2>&1
             tail -n 2 "$OUT/cutlass_tests.txt"
             R=docs/data/bench/cutlass_probe/fp8/heldout/route.py
             export SWIZZLEKIT_PRINT_PICKS=1      # each first call's medians, into the logs
             timeout 180 python3 $R "$OUT/route_swap.jsonl" 10 20261132 swap > "$OUT/route_swap.txt" 2>&1
             timeout 180 python3 $R "$OUT/route_all.jsonl" 10 20261133 > "$OUT/route_all.txt" 2>&1
             cut -c1-300 "$OUT/route_swap.txt" "$OUT/route_all.txt"
             timeout 180 python3 docs/data/bench/cutlass_probe/heldout_h100/route16.py \
               "$OUT/route16.jsonl" 10 20261135 > "$OUT/route16.txt" 2>&1
             cut -c1-300 "$OUT/route16.txt" ;;
    narrow) timeout 200 python3 docs/data/bench/tf32_2048/probe.py "$OUT/narrow.jsonl" narrow \
              narrow_heldout > "$OUT/narrow.txt" 2>&1; tail -n 8 "$OUT/narrow.txt" | cut -c1-300 ;;
    claims) for pass in pass_a pass_b pass_c; do
              LIMIT=170 bash docs/data/order_times/retime.sh "$OUT/claims/$pass" claims 0/1 9
            done
            (cd "$OUT" && tar czf claims.tgz claims && rm -rf claims) ;;
    *) echo "unknown part $part; choose from: tier tf32 rule heldout wave tail fp8tail split regs orders bf16 fp16 fp8 ragged report cutlass narrow claims" >&2
       exit 2 ;;
  esac
done
