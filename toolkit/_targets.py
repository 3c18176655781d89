"""Targets: the strings that name where tools come from, for the CLI, golden manifests and notebooks.

* ``specs/orders.yaml`` (``.yaml``, ``.yml`` or ``.json``): an OpenAPI spec, through :func:`toolkit.from_openapi`
  (``namespace`` defaults to the file name's leading letters);
* ``path/to/file.py:function`` or ``package.module:function``: a function through
  :func:`toolkit.from_function` (or a ready ``Tool``/``Toolset`` object of that name);
* ``package.module`` or ``file.py``: every ``Tool`` and ``Toolset`` defined at the module's top level.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from toolkit._exceptions import SpecError, ToolkitError
from toolkit._openapi import from_openapi
from toolkit._tool import Tool, Toolset

__all__ = ["SPEC_SUFFIXES", "default_namespace", "import_location", "is_spec", "load_spec", "load_tools", "pick"]

SPEC_SUFFIXES = (".yaml", ".yml", ".json")


def is_spec(target: str) -> bool:
    return ":" not in target.replace("\\", "/").split("/")[-1] and target.lower().endswith(SPEC_SUFFIXES)


def default_namespace(path: str | Path) -> str:
    """``specs/orders.yaml`` → ``orders``; ``openai-3.1.json`` → ``openai`` (so two versions share names)."""
    match = re.match(r"[A-Za-z][A-Za-z0-9]*", Path(path).stem)
    return match.group(0).lower() if match else "api"


def load_spec(path: str, namespace: str | None, *, select: str = "extension", overrides: str | None = None) -> Toolset:
    """Build the toolset of one spec file (the file must exist)."""
    if not Path(path).is_file():
        raise SpecError(f"spec file {path!r} not found; pass the path of an OpenAPI .yaml/.json file")
    options: dict[str, Any] = {"select": select}
    if overrides:
        options["overrides"] = overrides
    return from_openapi(Path(path), namespace or default_namespace(path), **options)


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise ToolkitError(f"no Python file at {str(path)!r}; pass file.py:function or module:function")
    name = f"_toolkit_target_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ToolkitError(f"cannot import {str(path)!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def import_location(location: str) -> ModuleType:
    """Import ``package.module`` or a ``path/to/file.py``."""
    if location.endswith(".py"):
        return _import_file(Path(location))
    try:
        return importlib.import_module(location)
    except ModuleNotFoundError as error:
        raise ToolkitError(f"cannot import module {location!r} ({error}); is it on sys.path?") from error


def _tools_of(value: Any, label: str, namespace: str | None) -> list[Tool]:
    if isinstance(value, Tool):
        return [value]
    if isinstance(value, Toolset):
        return list(value.tools)
    if callable(value):
        # The Python source stage loads pydantic: only when a target names a function.
        from toolkit._from_python import from_function

        return [from_function(value, namespace=namespace)]
    raise ToolkitError(f"{label} is a {type(value).__name__}, not a function, Tool or Toolset")


def _module_tools(module: ModuleType) -> list[Tool]:
    found: list[Tool] = []
    for value in vars(module).values():
        if isinstance(value, Tool):
            found.append(value)
        elif isinstance(value, Toolset):
            found += value.tools
    if not found:
        raise ToolkitError(
            f"module {module.__name__!r} defines no Tool or Toolset; name a function instead: module:function"
        )
    return found


def load_tools(
    target: str, *, namespace: str | None = None, select: str = "extension", overrides: str | None = None
) -> list[Tool]:
    """Every tool a target names (see the module docstring)."""
    if is_spec(target):
        return list(load_spec(target, namespace, select=select, overrides=overrides).tools)
    location, _, attribute = target.rpartition(":") if ":" in target else (target, "", "")
    if not attribute:
        return _module_tools(import_location(location))
    module = import_location(location)
    if not hasattr(module, attribute):
        raise ToolkitError(f"{location!r} has no attribute {attribute!r}")
    return _tools_of(getattr(module, attribute), target, namespace)


def pick(tools: Iterable[Tool], op: str | None) -> list[Tool]:
    """The tools matching ``--op`` (an operationId or a tool name), or all of them."""
    every = list(tools)
    if op is None:
        return every
    chosen = [t for t in every if op in (t.name, t.operation_id)]
    if not chosen:
        names = ", ".join(t.operation_id or t.name for t in every) or "none"
        raise ToolkitError(f"no operation or tool named {op!r}; choose one of: {names}", slug="unknown_operation")
    return chosen
