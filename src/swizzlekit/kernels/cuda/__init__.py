"""CUDA C++ kernels (``.cu`` files here), compiled at run time with NVRTC (``nvrtc.py``) and
registered in ``ladder.py``."""
