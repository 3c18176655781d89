"""Shared test fixtures: where the repo and the shared OpenAPI corpus are; and how the whole suite runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from locations import CORPUS, REPO


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The whole suite (``pytest`` with no paths, as the README's test command runs it) runs on every core when
    pytest-xdist is installed (the ``dev`` extra), a whole file per worker at a time (``--dist loadfile``): a
    notebook's cells share one kernel and a module's fixtures (a JupyterLab, a demo API) start once. Naming
    paths, ``-n N`` (``-n 0``: one process) or ``-p no:xdist`` leaves the choice to the command line."""
    if (
        config.args_source is not pytest.Config.ArgsSource.TESTPATHS
        or not config.pluginmanager.has_plugin("xdist")
        or config.option.numprocesses is not None
        or hasattr(config, "workerinput")
        or config.option.collectonly
    ):
        return
    config.option.numprocesses = "auto"
    if config.option.dist == "no":
        config.option.dist = "loadfile"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test over the real OpenAPI corpus (marked ``corpus``, or reading it through ``corpus_dir``: specs of up
    to tens of MB) or in a real browser is ``slow`` as well, so ``-m "not slow"`` leaves a quick run."""
    for item in items:
        if {"corpus", "browser"} & {m.name for m in item.iter_markers()} or "corpus_dir" in getattr(
            item, "fixturenames", ()
        ):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The 26 real OpenAPI specs beside the repo; skipped on a clone without them."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"OpenAPI corpus not found at {CORPUS} (it sits beside the repo in ../shared)")
    return CORPUS
