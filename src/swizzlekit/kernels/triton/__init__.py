"""The Triton GEMMs, a call in three stages: the door (checks and copies: call.py, routes.py,
copies.py), the plan (tile configs, load path, CTA order, split of K and composite tiles,
decided once per signature: configs.py, matmul_configs.py, scaled_configs.py, choose.py,
auto_order.py, tuning.py, timing.py, splits.py, split_k.py, waves.py, clustered.py, explain.py,
footprint.py, device.py) and the launch (a compiled plan: plans.py, pad.py, kmajor.py),
around the kernels (pointer_kernel.py, tma_kernel.py, wide_kernel.py, scaled_kernel.py,
tiles.py, baseline.py, and the lab's table_gemm.py; matmul.py holds the 16-bit and fp32
call's door, plan and launch, scaled.py the fp8 call's). Each module's first line names its
stage; none imports another in a circle, and no function re-enters itself
(tests/test_imports.py)."""
