"""swizzlekit: data locality for GPU matrix multiplication.

Finds swizzles for shared-memory banks and CTA order, predicts their effect with models
checked against hardware counters, and applies them in GEMM kernels.
"""

__version__ = "0.1.0"
