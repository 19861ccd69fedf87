"""The README's sample outputs are what the commands print now: each ``$ swizzlekit ...`` block
is run, and every line it shows (up to a closing ``...``) must start the command's output."""

import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).parents[1] / "README.md"


def _samples():
    text = README.read_text()
    for block in re.findall(r"```\n(\$ swizzlekit [^\n]+\n.*?)```", text, flags=re.S):
        command, *shown = block.rstrip("\n").split("\n")
        if shown and shown[-1] == "...":
            shown = shown[:-1]
        yield pytest.param(command[2:], shown, id=command[2:60])


SAMPLES = list(_samples())


def test_the_readme_has_samples():
    assert SAMPLES


@pytest.mark.parametrize("command, shown", SAMPLES)
def test_readme_sample_is_current(command, shown, capsys):
    from swizzlekit.cli import main

    assert main(shlex.split(command)[1:]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[:len(shown)] == shown, "the README shows a stale output; run the command"


def test_readme_python_sample_gives_the_values_its_comments_show():
    """Each line of the README's Python block that ends in ``# VALUE: ...`` or ``# VALUE,``
    evaluates to that value."""
    block = re.search(r"```python\n(.*?)```", README.read_text(), flags=re.S).group(1)
    scope: dict = {}
    checked = 0
    for line in block.splitlines():
        code, _, comment = line.partition("  #")
        if code.startswith(("from ", "import ")) or "=" in code.split("(")[0]:
            exec(code, scope)
            continue
        match = re.match(r"\s*(\(.*?\)|[\d.]+)[:,]", comment)
        if code.strip() and match:
            assert eval(code, scope) == eval(match.group(1)), line
            checked += 1
    assert checked >= 2
