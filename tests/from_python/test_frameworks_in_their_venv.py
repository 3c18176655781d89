"""CrewAI, llama-index-core and AG2 < 1.0 tools, tested under their frameworks in a venv of their own.

CrewAI pins pydantic, openai and mcp below the versions this suite pins (.ci/constraints.txt), llama-index-core
brings 34 packages (about 145 MB), and AG2 < 1.0 (the ``autogen`` package) shares its distribution name with the
AG2 of the `frameworks` extra, so none is in that extra: ``.ci/setup`` installs them, with toolkit, in
``.venv-frameworks`` (pinned by .ci/constraints-frameworks.txt), and this test runs their test modules there, in
a pytest of that venv. Where this interpreter has them all, the modules run here directly and this test has
nothing to add.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess

import pytest
from locations import REPO

MODULES = (
    "tests/from_python/test_framework_crewai.py",
    "tests/from_python/test_framework_llama_index.py",
    "tests/from_python/test_framework_autogen.py",
)
FRAMEWORKS = ("crewai", "llama_index", "autogen")
PYTHON = REPO / ".venv-frameworks" / "bin" / "python"


@pytest.mark.slow
def test_crewai_llama_index_and_autogen_tools_pass_their_tests_in_their_venv() -> None:
    if all(importlib.util.find_spec(name) is not None for name in FRAMEWORKS):
        pytest.skip("crewai, llama-index-core and autogen are installed here: their test modules run in this session")
    if not PYTHON.is_file():
        pytest.skip(f"{PYTHON.parent.parent.name} is missing (crewai conflicts with the pinned deps): run .ci/setup")
    run = subprocess.run(
        [str(PYTHON), "-m", "pytest", "-q", "-o", "addopts=-p no:cacheprovider -rs", *MODULES],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-2000:]
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "skipped" not in summary, summary  # both frameworks really ran
    assert " passed" in summary, summary
