"""Every committed notebook is really checked by nbval: executed outputs are stored, and nbval runs them.

nbval skips the comparison of a code cell without an ``execution_count``, so a notebook committed with
cleared outputs would pass vacuously. These checks make that a failure instead.

Internals: ``toolkit.widgets._code.BUNDLE``, the editor's bundled script, which no notebook may save in its widget
state.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from pathlib import Path

import pytest
from locations import REPO

NOTEBOOKS = REPO / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def _code_cells(path: Path) -> list[dict[str, object]]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def test_there_are_notebooks() -> None:
    assert PATHS, f"no notebooks in {NOTEBOOKS}"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_every_code_cell_is_executed_so_nbval_compares_it(path: Path) -> None:
    cells = _code_cells(path)
    assert cells, f"{path.name} has no code cells"
    not_run = [i for i, cell in enumerate(cells) if cell.get("execution_count") is None]
    rerun = f"jupyter nbconvert --execute --to notebook --inplace {path.name}"
    assert not not_run, f"{path.name}: code cells {not_run} have no execution count; run `{rerun}`"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_most_code_cells_show_something(path: Path) -> None:
    """A notebook whose outputs were stripped compares nothing; most cells should end with what they show."""
    cells = _code_cells(path)
    shown = sum(1 for cell in cells if cell.get("outputs"))
    assert shown * 2 > len(cells), f"{path.name}: only {shown} of {len(cells)} code cells have outputs"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_execution_counts_run_top_to_bottom(path: Path) -> None:
    counts = [cell.get("execution_count") for cell in _code_cells(path)]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name} was not executed top to bottom in one kernel"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_no_error_outputs_are_committed(path: Path) -> None:
    errors = [o for cell in _code_cells(path) for o in cell.get("outputs", []) if o.get("output_type") == "error"]  # type: ignore[union-attr]
    assert not errors, f"{path.name} has an error output: {errors[0].get('ename')}"


def test_default_pytest_runs_the_notebooks_under_nbval(repo_root: Path) -> None:
    options = tomllib.loads((repo_root / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "notebooks" in options["testpaths"]
    addopts = options["addopts"].split()
    assert "--nbval" in addopts, "strict --nbval compares outputs; --nbval-lax would not"
    assert "--nbval-sanitize-with" in addopts
    assert addopts[addopts.index("--nbval-sanitize-with") + 1] == "notebooks/sanitize.cfg"


def test_sanitize_file_pairs_each_regex_with_a_replacement() -> None:
    parser = configparser.ConfigParser()
    parser.read(NOTEBOOKS / "sanitize.cfg")
    assert parser.sections()
    for name in parser.sections():
        pattern = parser[name]["regex"]
        re.compile(pattern)
        assert "replace" in parser[name], f"[{name}] has a regex but no replace line"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_no_saved_widget_state_carries_the_code_editor_s_bundle(path: Path) -> None:
    from toolkit.widgets._code import BUNDLE

    marker = BUNDLE.read_text(encoding="utf-8")[-200:]
    assert marker not in path.read_text(encoding="utf-8"), (
        f"{path.name} saves the code editor's bundle in its widget state; run "
        f"`python notebooks/strip_editor_bundle.py notebooks/{path.name}`"
    )
