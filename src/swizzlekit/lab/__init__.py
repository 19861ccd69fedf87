"""Measuring on a GPU: Nsight Compute wrapper, microbenchmarks, ceilings.

Everything here that touches a GPU imports torch, triton or CUDA tools lazily.
"""
