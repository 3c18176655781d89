"""The README's newcomer path: its commands come first, and its ten-line example runs and prints what it says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

START = "## Start here"


def _section(repo_root: Path) -> str:
    text = (repo_root / "README.md").read_text(encoding="utf-8")
    return text[text.index(START) : text.index("\n## ", text.index(START) + 1)]


def test_the_readme_opens_with_the_two_commands_then_the_start(repo_root: Path) -> None:
    text = (repo_root / "README.md").read_text(encoding="utf-8")
    first_block = text.index("```bash")
    assert first_block < text.index(START)
    assert text.index("bash .ci/setup && .venv/bin/python -m pytest") < text.index(START)
    assert text.index("```python") > text.index(START)


def test_the_example_runs_and_prints_what_the_readme_shows(repo_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    section = _section(repo_root)
    code, shown = re.findall(r"```(?:python|text)\n(.*?)```", section, flags=re.DOTALL)
    assert len(code.strip().splitlines()) == 10
    monkeypatch.chdir(repo_root)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue() == shown


def test_lowering_and_strategy_b_are_defined_where_first_used(repo_root: Path) -> None:
    text = (repo_root / "README.md").read_text(encoding="utf-8").lower()
    for term in ("lowering", "strategy b"):
        assert text.index(term) == text.index(f"**{term}** is ") + 2, term
