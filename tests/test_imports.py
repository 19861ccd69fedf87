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


LIBRARY = ["smem", "cta", "kernels", "gpus.py", "errors.py", "turns.py", "seeds.py", "plots.py",
           "data"]
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


def _triton_module_graph() -> dict[str, set[str]]:
    """Which modules of swizzlekit.kernels.triton each one imports, at module level or inside
    a function (an import inside a function still closes a circle)."""
    import ast
    from pathlib import Path

    import swizzlekit

    root = Path(swizzlekit.__file__).parent / "kernels" / "triton"
    mods = {p.stem: p for p in root.glob("*.py")}
    graph = {}
    for name, path in mods.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("swizzlekit.kernels.triton."):
                    deps.add(node.module.rsplit(".", 1)[1])
                elif node.module == "swizzlekit.kernels.triton":
                    deps |= {a.name for a in node.names}
        graph[name] = {d for d in deps if d in mods and d != name}
    return graph


def test_kernels_triton_has_no_import_circles():
    graph = _triton_module_graph()
    state: dict[str, int] = {}              # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph[node]):
            assert state.get(dep) != 1, " -> ".join(path + [dep])
            if dep not in state:
                visit(dep, path + [dep])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert len(graph) >= 15 and graph["call"] and graph["matmul"]       # the graph was read


def test_no_gemm_function_re_enters_itself():
    """The GEMM calls run door -> plan -> launch: no function of kernels/triton calls itself
    (a padded copy or split-K's first-call timing re-entering ``matmul``), and none but the
    package's entry points calls ``matmul`` or ``scaled_matmul``."""
    import ast
    from pathlib import Path

    import swizzlekit

    root = Path(swizzlekit.__file__).parent / "kernels" / "triton"
    seen = 0
    for path in sorted(root.glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            seen += 1
            called = {n.func.id for n in ast.walk(fn)
                      if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            assert fn.name not in called, f"{path.name}: {fn.name} calls itself"
            if path.name != "__init__.py":
                assert not called & {"matmul", "scaled_matmul"}, f"{path.name}: {fn.name}"
    assert seen > 50


def test_each_gemm_module_names_its_stage_first():
    from pathlib import Path

    import swizzlekit

    root = Path(swizzlekit.__file__).parent / "kernels" / "triton"
    stages = ("Door", "Plan", "Launch", "Kernel", "The Triton GEMMs, a call in three stages")
    for path in sorted(root.glob("*.py")):
        first = path.read_text().splitlines()[0]
        assert first.startswith('"""') and first[3:].startswith(stages), path.name
