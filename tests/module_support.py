"""Load a Python file that is not on the path (a benchmark script, a corpus of bad inputs) as a module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_module(name: str, path: Path) -> ModuleType:
    """``path`` run as module ``name``, registered in ``sys.modules`` (dataclasses and string annotations
    resolve through the entry), with its own folder first on ``sys.path`` while it runs, as for a script (a
    benchmark imports its neighbours)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module
