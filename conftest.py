"""Doctest collection over src/: modules that need triton are skipped where it is missing."""

import importlib.util

collect_ignore_glob = []
if importlib.util.find_spec("triton") is None:
    collect_ignore_glob += ["src/swizzlekit/cta/triton.py", "src/swizzlekit/kernels/triton/*.py"]
