"""Golden-file assertions for pytest: ``golden.check(tool)``, and ``--update-golden`` to accept changes.

    def test_search_declaration(golden):
        golden.check(tk.from_function(search_issues, namespace="issues"))

One file per assertion, named by the test id (a second assertion in one test gets ``.2``, or pass ``name=``),
stored as canonical JSON (sorted keys, no timestamps) under ``__golden__/<test module>/`` beside the test
file, or under the ``golden_dir`` ini option (relative to the rootdir). A difference fails the test with the
classified declaration diff; ``pytest --update-golden`` rewrites the files (atomically) and passes.
A missing file fails too, so a forgotten ``git add`` cannot pass silently.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolkit._canonical import json_copy, pretty
from toolkit._diff import diff_declarations
from toolkit._golden import write_atomic

__all__ = ["GoldenFixture", "golden"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-\[\]]+")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolkit golden")
    group.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite golden files that are missing or differ, instead of failing",
    )
    parser.addini("golden_dir", "folder for golden files (relative to rootdir); default: __golden__ beside tests")


def _as_json(value: Any) -> Any:
    """A Tool becomes its declaration, a Toolset ``{name: declaration}``, anything with ``to_dict()`` its dict;
    JSON values stay as they are."""
    if hasattr(value, "declaration"):
        return value.declaration
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "tools"):
        return {tool.name: tool.declaration for tool in value.tools}
    return json_copy(value)


def _is_declaration(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("name"), str)


class GoldenFixture:
    """Compares values with their golden files for one test (see the module docstring)."""

    def __init__(self, folder: Path, test_name: str, update: bool, written: list[str]) -> None:
        self.folder = folder
        self.test_name = _UNSAFE.sub("_", test_name)
        self.update = update
        self._written = written
        self._count = 0

    def path_for(self, name: str | None = None) -> Path:
        """Where the next assertion's file is (``name`` overrides the test-id-derived name)."""
        if name is not None:
            return self.folder / f"{_UNSAFE.sub('_', name)}.json"
        suffix = "" if self._count <= 1 else f".{self._count}"
        return self.folder / f"{self.test_name}{suffix}.json"

    def check(self, value: Any, name: str | None = None) -> None:
        """Assert that ``value`` (a Tool, a declaration, or JSON data) equals its golden file."""

        self._count += 1
        path = self.path_for(name)
        data = _as_json(value)
        text = pretty(data)
        stored = path.read_text(encoding="utf-8") if path.is_file() else None
        if stored == text:
            return
        if self.update:
            write_atomic(path, text)
            self._written.append(str(path))
            return
        if stored is None:
            pytest.fail(f"golden file {path} does not exist yet; run pytest with --update-golden to write it")
        pytest.fail(_mismatch(path, stored, text, data), pytrace=False)


def _mismatch(path: Path, stored: str, text: str, data: Any) -> str:
    lines = [f"{path} differs from the current value (run pytest --update-golden to accept it)"]
    try:
        before = json.loads(stored)
    except ValueError:
        before = None
    if _is_declaration(before) and _is_declaration(data):
        lines.append(diff_declarations(before, data).to_text())
    diff = difflib.unified_diff(stored.splitlines(), text.splitlines(), "golden", "current", lineterm="")
    lines += list(diff)
    return "\n".join(lines)


def _folder(request: pytest.FixtureRequest) -> Path:
    configured = request.config.getini("golden_dir")
    test_file = Path(str(request.node.path))
    if configured:
        return Path(str(request.config.rootpath)) / str(configured) / test_file.stem
    return test_file.parent / "__golden__" / test_file.stem


_WRITTEN_KEY = pytest.StashKey[list[str]]()


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> GoldenFixture:
    """Golden-file assertions for this test: ``golden.check(tool_or_value, name=None)``."""
    written = request.config.stash.setdefault(_WRITTEN_KEY, [])
    update = bool(request.config.getoption("--update-golden"))
    return GoldenFixture(_folder(request), request.node.name, update, written)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    written = config.stash.get(_WRITTEN_KEY, [])
    if written:
        terminalreporter.write_sep("-", f"golden files written: {len(written)}")
        for path in written:
            terminalreporter.write_line(f"  {path}")
