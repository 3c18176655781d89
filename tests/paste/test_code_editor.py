"""The code editor widget: a bundled CodeMirror front end (nothing loaded from a CDN) and what the paste box and
the playground tell it (highlighting, gutter marks).

Internals: ``toolkit.widgets._code`` (``CodeEditor``, ``BUNDLE``), the editor widget and its bundle under test."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import display_samples as samples
import pytest
from test_paste import FRAGMENT, FUNCTION

from toolkit.widgets import Workbench
from toolkit.widgets._code import BUNDLE, CodeEditor
from toolkit.widgets.playground import Playground

SOURCE = BUNDLE.parent.parent / "editor_src"


def test_the_bundle_is_one_minified_es_module_that_loads_nothing_from_the_network() -> None:
    text = BUNDLE.read_text(encoding="utf-8")
    assert re.search(r"export\s*\{\s*[\w$]+ as default\s*\}", text)
    assert not re.search(r"""\bimport\s*(?:\(|[\w{*][^;]*?\bfrom)\s*["']""", text), "every import is bundled"
    assert "https://cdn" not in text
    assert "esm.sh" not in text
    assert text.count("\n") < 50, "minified"
    assert 100_000 < len(text) < 1_500_000


def test_every_front_end_dependency_is_pinned_by_the_lock_file() -> None:
    package = json.loads((SOURCE / "package.json").read_text())
    lock = json.loads((SOURCE / "package-lock.json").read_text())["packages"]
    wanted = {**package["dependencies"], **package["devDependencies"]}
    assert {"codemirror", "@codemirror/lang-python", "@codemirror/lang-yaml", "@codemirror/lint"} <= set(wanted)
    for name, version in wanted.items():
        assert lock[f"node_modules/{name}"]["version"] == version
    assert "--minify" in package["scripts"]["build"]


@pytest.mark.skipif(
    not (SOURCE / "node_modules").is_dir() or shutil.which("npm") is None, reason="needs editor_src/node_modules"
)
def test_the_committed_bundle_is_what_the_build_makes(tmp_path: Path) -> None:
    script = json.loads((SOURCE / "package.json").read_text())["scripts"]["build"]
    out = tmp_path / "editor.js"
    command = script.replace("../static/editor.js", str(out)).split()
    subprocess.run(["npx", "--no-install", *command], cwd=SOURCE, check=True, capture_output=True, timeout=120)
    assert out.read_bytes() == BUNDLE.read_bytes()


def test_a_mistake_is_marked_in_the_gutter_at_its_line() -> None:
    box = Workbench().editor()
    box.set_text(FUNCTION.replace("def create_ticket(title: str,", "def create_ticket(title: str"))
    assert box.draft.problem is not None
    assert box.text.diagnostics == [
        {"line": box.draft.problem.line, "message": box.draft.problem.message, "severity": "error"}
    ]
    box.set_text(FUNCTION)
    assert box.text.diagnostics == []
    assert box.text.language == "python"


def test_a_fragment_is_highlighted_as_yaml_or_json() -> None:
    box = Workbench().editor()
    box.set_text(FRAGMENT)
    assert box.text.language == "yaml"
    box.set_text(json.dumps({"paths": {}}))
    assert box.text.language == "json"


def test_the_playground_marks_json_that_does_not_parse() -> None:
    playground = Playground(samples.order_tool())
    assert isinstance(playground.editor, CodeEditor)
    assert playground.editor.language == "json"
    playground.set_arguments('{\n  "orderId": "x",\n  oops\n}')
    assert [mark["line"] for mark in playground.editor.diagnostics] == [3]
    playground.set_arguments({"orderId": "ord_000000000000"})
    assert playground.editor.diagnostics == []
