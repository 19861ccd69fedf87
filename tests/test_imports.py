"""smem and cta import only numpy and the standard library, so the analysis runs anywhere."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["swizzlekit.smem", "swizzlekit.cta", "swizzlekit.gpus"])
def test_analysis_modules_import_no_gpu_or_plotting_stack(module):
    code = (f"import sys, {module}; heavy = [m for m in ('torch', 'triton', 'cupy', 'cuda', "
            f"'matplotlib', 'rich') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
