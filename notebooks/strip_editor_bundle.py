"""Replace the code editor's bundled front end in a notebook's saved widget state with a small static view.

    python notebooks/strip_editor_bundle.py notebooks/07_paste_box.ipynb ...

Run it after `jupyter nbconvert --execute --to notebook --inplace`: every saved code editor would otherwise carry
the whole CodeMirror bundle (about half a megabyte each). The saved view shows the editor's text as it was;
running the notebook draws the real editor again. tests/test_notebooks_guard.py checks that it was run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

STATE = "application/vnd.jupyter.widget-state+json"
STATIC = (
    "export default { render({ model, el }) { const pre = document.createElement('pre'); "
    "pre.textContent = model.get('value'); el.append(pre); } };"
)
"""What a saved code editor shows until the notebook runs again: its text."""


def strip(path: Path) -> int:
    """Replace each saved code editor's bundle in ``path``; how many were replaced."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    models = notebook.get("metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})
    replaced = 0
    for model in models.values():
        state = model.get("state", {})
        if "diagnostics" in state and "debounce" in state and state.get("_esm") not in (None, STATIC):
            state["_esm"] = STATIC
            replaced += 1
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return replaced


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: {strip(Path(name))} code editors")
