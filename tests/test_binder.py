"""binder/ installs the package and JupyterLab on Python 3.11: checked with repo2docker, without Docker."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _repo2docker() -> str:
    beside_python = Path(sys.executable).with_name("repo2docker")
    found = str(beside_python) if beside_python.is_file() else shutil.which("repo2docker")
    if found is None:
        pytest.skip("jupyter-repo2docker is not installed (pip install jupyter-repo2docker)")
    return found


def test_binder_requirements_install_this_checkout_and_jupyterlab(repo_root: Path) -> None:
    lines = (repo_root / "binder" / "requirements.txt").read_text().split()
    assert "-e" in lines
    assert lines[lines.index("-e") + 1] == "."
    assert any(line.startswith("jupyterlab") for line in lines)
    assert (repo_root / "binder" / "runtime.txt").read_text().strip() == "python-3.11"
    assert not (repo_root / "binder" / "environment.yml").exists(), "an environment.yml makes requirements.txt ignored"


def test_repo2docker_reads_the_binder_config(repo_root: Path) -> None:
    command = [_repo2docker(), "--no-build", "--debug", "--no-run", str(repo_root)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-2000:]
    assert "python=3.11" in output
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in output
