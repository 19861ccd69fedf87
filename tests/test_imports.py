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


LIBRARY = ["smem", "cta", "kernels", "gpus.py", "errors.py", "seeds.py", "plots.py", "data"]
ABOVE = {"swizzlekit.lab", "swizzlekit.compare", "swizzlekit.report", "swizzlekit.cli"}


def test_the_library_never_imports_the_lab_or_anything_above_it():
    """Imports go one way: cli -> report -> compare -> lab -> kernels -> cta/smem/gpus."""
    import ast
    from pathlib import Path

    import swizzlekit

    root = Path(swizzlekit.__file__).parent
    files = [f for part in LIBRARY for f in ([root / part] if part.endswith(".py")
                                             else sorted((root / part).rglob("*.py")))]
    assert len(files) > 20
    bad = []
    for f in files:
        for node in ast.walk(ast.parse(f.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{f.relative_to(root)}: {n}" for n in names
                    if any(n == a or n.startswith(a + ".") for a in ABOVE)]
    assert bad == []
