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

Any entry may pin more dialects than ``gemini`` (always pinned, in ``<tool>.json``): ``dialects = ["openai",
"mcp"]`` keeps ``<dialect>/<tool>.json`` with each of its tools' payload in that dialect.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._exceptions import GoldenError, SignatureError, SpecError, TargetError
from toolkit._lowering import DIALECTS
from toolkit._openapi._pin import StalePin, stale_pin
from toolkit._targets import find_object, load_spec, load_tools, split_target, tools_of
from toolkit._tool import Tool

__all__ = ["MANIFEST", "Manifest", "load_manifest", "manifest_tools"]

MANIFEST = "golden.toml"
"""The manifest's file name inside a golden folder."""
_FUNCTION_OPTIONS = ("namespace", "name", "description", "effect", "confirm")


def _entries(manifest: Path, table: dict[str, Any], kind: str, key: str) -> list[dict[str, Any]]:
    """The ``[[kind]]`` entries of a manifest, each a table with a string ``key`` (else a GoldenError)."""
    entries = table.get(kind, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise GoldenError(f"{manifest}: `{kind}` must be a list of tables, written [[{kind}]]", slug="golden_manifest")
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry.get(key), str):
            raise GoldenError(
                f'{manifest}: [[{kind}]] entry {number} needs `{key} = "..."` (see `toolkit golden --help`)',
                slug="golden_manifest",
            )
    return entries


def _relative(manifest: Path, target: str) -> str:
    """A file target relative to the manifest's folder; module names stay as they are."""
    location, attribute = split_target(target)
    if not location.endswith(".py") or Path(location).is_absolute():
        return target
    path = (manifest.parent / location).as_posix()
    return path if attribute is None else f"{path}:{attribute}"


def _spec_tools(manifest: Path, entry: dict[str, Any]) -> list[Tool]:
    source = str(manifest.parent / entry["path"])
    return list(load_spec(source, entry.get("namespace"), select=entry.get("select", "extension")).tools)


def _function_tools(manifest: Path, entry: dict[str, Any]) -> list[Tool]:
    target = _relative(manifest, entry["target"])
    options = {k: entry[k] for k in _FUNCTION_OPTIONS if k in entry}
    return tools_of(find_object(target), target, **options)


@dataclass(frozen=True, slots=True)
class Manifest:
    """The tools a manifest puts under golden control, the dialects pinned per tool besides ``gemini``, and the
    manifest's spec files that changed since they were pinned in their lock file (``golden check`` fails on them)."""

    tools: tuple[Tool, ...]
    pins: Mapping[str, tuple[str, ...]]
    stale: tuple[StalePin, ...] = ()


def _dialects(manifest: Path, kind: str, number: int, entry: Mapping[str, Any]) -> tuple[str, ...]:
    names = entry.get("dialects", [])
    if not isinstance(names, list) or any(not isinstance(name, str) or name not in DIALECTS for name in names):
        raise GoldenError(
            f"{manifest}: [[{kind}]] entry {number} has dialects = {names!r}; give a list of some of "
            f"{', '.join(DIALECTS)}",
            slug="golden_manifest",
        )
    return tuple(name for name in dict.fromkeys(names) if name != "gemini")


def manifest_tools(path: str | Path) -> list[Tool]:
    """The tools a ``golden.toml`` manifest puts under golden control, in manifest order.

    File paths (a spec's ``path``, a ``.py`` target) are relative to the manifest's folder.
    """
    return list(load_manifest(path).tools)


def load_manifest(path: str | Path) -> Manifest:
    """The tools of a ``golden.toml`` manifest, in manifest order, and the dialects each entry pins."""
    manifest = Path(path)
    try:
        table = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise GoldenError(
            f"cannot read the golden manifest {str(manifest)!r} ({error}); create it (see `toolkit golden --help`)"
            " or name the targets on the command line",
            slug="golden_manifest",
        ) from error
    readers: dict[str, tuple[str, Callable[[dict[str, Any]], list[Tool]]]] = {
        "spec": ("path", lambda entry: _spec_tools(manifest, entry)),
        "function": ("target", lambda entry: _function_tools(manifest, entry)),
        "module": ("target", lambda entry: load_tools(_relative(manifest, entry["target"]))),
    }
    tools: list[Tool] = []
    pins: dict[str, tuple[str, ...]] = {}
    for kind, (key, read) in readers.items():
        for number, entry in enumerate(_entries(manifest, table, kind, key), 1):
            dialects = _dialects(manifest, kind, number, entry)
            try:
                found = read(entry)
            except (SpecError, TargetError, SignatureError) as error:
                error.args = (f"{manifest}, [[{kind}]] entry {number}: {error.message}",)
                raise
            tools += found
            if dialects:
                pins.update(dict.fromkeys((tool.name for tool in found), dialects))
    stale = [
        stale_pin(Path(os.path.normpath(manifest.parent / entry["path"])))
        for entry in _entries(manifest, table, "spec", "path")
    ]
    return Manifest(tuple(tools), pins, tuple(s for s in stale if s is not None))
