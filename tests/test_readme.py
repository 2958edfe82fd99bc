"""The README tells the truth: every `console` example prints what it shows, doctests pass."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def console_examples() -> list[tuple[str, str]]:
    """(command, expected output) pairs from the README's ```console blocks."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(), flags=re.DOTALL):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_console_example(command, expected, tmp_path):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    result = subprocess.run(
        ["bash", "-c", command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert result.stdout == expected


def test_python_examples():
    parser = doctest.DocTestParser()
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    test = parser.get_doctest("\n".join(blocks), {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
