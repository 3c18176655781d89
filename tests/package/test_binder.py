"""binder/ installs the package and JupyterLab on Python 3.11: checked with repo2docker, without Docker."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest


def _repo2docker() -> str:
    beside_python = Path(sys.executable).with_name("repo2docker")
    found = str(beside_python) if beside_python.is_file() else shutil.which("repo2docker")
    if found is None:
        pytest.skip("jupyter-repo2docker is not installed (pip install jupyter-repo2docker)")
    return found


def test_binder_requirements_install_this_checkout_with_the_lab_extra(repo_root: Path) -> None:
    """The `lab` extra brings JupyterLab and the demo API the runtime notebooks call."""
    lines = (repo_root / "binder" / "requirements.txt").read_text().split()
    assert "-e" in lines
    assert lines[lines.index("-e") + 1] == ".[lab]"
    extras = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(item.startswith("jupyterlab") for item in extras["lab"])
    assert "toolkit-workbench[demo]" in extras["lab"]
    assert (repo_root / "binder" / "runtime.txt").read_text().strip() == "python-3.11"
    assert not (repo_root / "binder" / "environment.yml").exists(), "an environment.yml makes requirements.txt ignored"


def test_repo2docker_reads_the_binder_config(repo_root: Path) -> None:
    command = [_repo2docker(), "--no-build", "--debug", "--no-run", str(repo_root)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-2000:]
    assert "python=3.11" in output
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in output
