"""The golden manifest: ``golden.toml`` lists which tools are under golden control.

::

    [[spec]]
    path = "../specs/orders.yaml"      # relative to golden.toml
    namespace = "orders"               # optional; select = "all" puts every operation under control

    [[function]]
    target = "toolkit.examples:search_issues"
    namespace = "issues"
    effect = "read"                    # any from_function option: namespace, name, description, effect, confirm

    [[module]]
    target = "mypackage.tools"         # every Tool and Toolset at the module's top level (or "../tools.py")
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from toolkit._exceptions import GoldenError
from toolkit._targets import import_location, load_spec, load_tools
from toolkit._tool import Tool

__all__ = ["MANIFEST", "manifest_tools"]

MANIFEST = "golden.toml"
"""The manifest's file name inside a golden folder."""
_FUNCTION_OPTIONS = ("namespace", "name", "description", "effect", "confirm")


def _function_tool(entry: dict[str, Any]) -> Tool:
    # The Python source stage loads pydantic: only for manifests that list functions.
    from toolkit._from_python import from_function

    location, _, attribute = str(entry["target"]).rpartition(":")
    options = {k: entry[k] for k in _FUNCTION_OPTIONS if k in entry}
    return from_function(getattr(import_location(location), attribute), **options)


def manifest_tools(path: str | Path) -> list[Tool]:
    """The tools a ``golden.toml`` manifest puts under golden control, in manifest order."""
    manifest = Path(path)
    try:
        entries = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise GoldenError(
            f"cannot read the golden manifest {str(manifest)!r} ({error}); create it (see `toolkit golden --help`)"
            " or name the targets on the command line",
            slug="golden_manifest",
        ) from error
    tools: list[Tool] = []
    for spec in entries.get("spec", []):
        source = manifest.parent / spec["path"]
        tools += load_spec(str(source), spec.get("namespace"), select=spec.get("select", "extension")).tools
    for function in entries.get("function", []):
        tools.append(_function_tool(function))
    for module in entries.get("module", []):
        target = str(module["target"])
        tools += load_tools(str(manifest.parent / target) if target.endswith(".py") else target)
    return tools
